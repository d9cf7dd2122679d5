--TEST--
Pool: the healthcheck timer is hidden: it does not mask a deadlock (DeadlockError path) nor keep the script alive
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, delay};

$checks = 0;
$pool = new Pool(fn() => "conn", healthcheck: function () use (&$checks) { $checks++; return true; },
    min: 1, max: 1, healthcheckInterval: 5);
delay(30); // the healthcheck does run while something else keeps the loop busy
var_dump($checks > 0);

// A coroutine waits forever on something else (an exhausted pool here, but any wait will do),
// and main waits for it: nothing can ever wake them, the periodic timer notwithstanding.
$r = $pool->acquire();
$c = spawn(function () use ($pool) {
    try {
        $pool->acquire();
    } catch (Throwable $e) {
        echo "coroutine: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
});
$t = hrtime(true);
try {
    await($c);
} catch (Async\AsyncCancellation $e) {
    echo "main: ", get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump((hrtime(true) - $t) / 1e6 < 1000);

// Main itself parked on the exhausted pool: same.
try {
    $pool->acquire();
} catch (Async\AsyncCancellation $e) {
    echo "main: ", get_class($e), ": ", $e->getMessage(), "\n";
}
echo "end\n"; // the script ends although the pool (and its periodic timer) is alive
?>
--EXPECTF--
bool(true)
coroutine: Async\AsyncCancellation: Deadlock detected
main: Async\AsyncCancellation: Deadlock detected
bool(true)
main: Async\AsyncCancellation: Deadlock detected
end

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s012-healthcheck-timer-hidden.php:23
Stack trace:
#0 %s012-healthcheck-timer-hidden.php(23): Async\await()
#1 {main}

Next Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s012-healthcheck-timer-hidden.php:31
Stack trace:
#0 %s012-healthcheck-timer-hidden.php(31): Async\Pool->acquire()
#1 {main}
  thrown in %s012-healthcheck-timer-hidden.php on line 31
