--TEST--
Deadlock while main waits: every waiter, main included, gets AsyncCancellation("Deadlock detected"); the process then ends with DeadlockError (spec §8.5)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend};

$a = null;
$b = null;
$a = spawn(function () use (&$b) {
    suspend();
    try {
        await($b);
    } catch (Throwable $e) {
        echo "a: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
});
$b = spawn(function () use (&$a) {
    try {
        await($a);
    } catch (Throwable $e) {
        echo "b: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
});
try {
    await($a);
    echo "not reached\n";
} catch (Async\AsyncCancellation $e) {
    echo "main: ", get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump($a->isCompleted(), $b->isCompleted());

// After a detected deadlock the runtime keeps working.
var_dump(await(spawn(fn() => "still works")));
echo "end\n";
?>
--EXPECTF--
a: Async\AsyncCancellation: Deadlock detected
b: Async\AsyncCancellation: Deadlock detected
main: Async\AsyncCancellation: Deadlock detected
bool(true)
bool(true)
string(11) "still works"
end

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 3 coroutines in waiting in %s003-deadlock-main-waiting.php:22
Stack trace:
#0 %s003-deadlock-main-waiting.php(22): Async\await()
#1 {main}
  thrown in %s003-deadlock-main-waiting.php on line 22
