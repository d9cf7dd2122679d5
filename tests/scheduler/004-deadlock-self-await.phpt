--TEST--
A coroutine awaiting itself deadlocks; detected after the main script ends
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, current_coroutine};

spawn(function () {
    try {
        await(current_coroutine());
    } catch (Async\AsyncCancellation $e) {
        echo "self-await: ", $e->getMessage(), "\n";
    }
});
echo "main end\n";
?>
--EXPECTF--
main end
self-await: Deadlock detected

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s004-deadlock-self-await.php:%d
Stack trace:
#0 {main}
  thrown in %s004-deadlock-self-await.php on line %d
