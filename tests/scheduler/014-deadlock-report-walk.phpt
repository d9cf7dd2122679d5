--TEST--
The deadlock report walks every live coroutine while the user error handler spawns coroutines for each warning
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=1
--FILE--
<?php
use function Async\{spawn, await};

// The deadlock report: the user error handler spawns a coroutine for each of the first three
// warnings; every live coroutine is reported once (main, the 5 waiters and the 3 spawned during
// the walk), and the waiters are then cancelled.
$reported = 0;
$spawned = 0;
$waiters = [];
set_error_handler(function (int $no, string $msg) use (&$reported, &$spawned, &$waiters) {
    if (str_starts_with($msg, 'Deadlock: ')) {
        $reported++;
    }
    if ($spawned < 3) {
        $spawned++;
        spawn(fn () => null); // a not-started coroutine: runnable, it finishes quickly
    }
    return true;
});
$gate = new Async\Future(new Async\FutureState());
for ($i = 0; $i < 5; $i++) {
    $waiters[] = spawn(function () use ($gate) {
        try {
            await($gate);
        } catch (Async\AsyncCancellation $e) {
            return 'cancelled';
        }
    });
}
try {
    await($gate);
} catch (Async\AsyncCancellation $e) {
    echo "main: ", $e->getMessage(), "\n";
}
restore_error_handler();
var_dump($reported, $spawned);
foreach ($waiters as $w) {
    echo await($w), "\n";
}

?>
--EXPECTF--
main: Deadlock detected
int(9)
int(3)
cancelled
cancelled
cancelled
cancelled
cancelled

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 6 coroutines in waiting in %s
Stack trace:
#0 %s
#1 {main}
  thrown in %s on line %d
