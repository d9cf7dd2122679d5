--TEST--
Deadlock while main waits: main's await throws DeadlockError, every other waiter gets AsyncCancellation
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
} catch (Async\DeadlockError $e) {
    echo "main: ", get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump($a->isCompleted(), $b->isCompleted());

// After a detected deadlock the runtime keeps working.
var_dump(await(spawn(fn() => "still works")));
echo "end\n";
?>
--EXPECT--
a: Async\AsyncCancellation: Deadlock detected
b: Async\AsyncCancellation: Deadlock detected
main: Async\DeadlockError: Deadlock detected: no active coroutines, 3 coroutines in waiting
bool(true)
bool(true)
string(11) "still works"
end
