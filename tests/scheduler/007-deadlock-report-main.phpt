--TEST--
Deadlock report when main is one of the waiters (await at top level)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=1
--FILE--
<?php
use function Async\{spawn, await, current_coroutine};

function waits_for_main($main) {
    try { await($main); } catch (Async\AsyncCancellation $e) { echo "waiter: ", $e->getMessage(), "\n"; }
}
Async\delay(0); $main = current_coroutine();
$c = spawn('waits_for_main', $main);
try {
    await($c);
} catch (Async\AsyncCancellation $e) {
    echo "main: ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
Warning: Deadlock detected: 2 coroutines waiting, 0 active events: every waiting coroutine is cancelled in %s007-deadlock-report-main.php on line 10

Warning: Deadlock: Main coroutine spawned at %s007-deadlock-report-main.php:7, suspended at %s007-deadlock-report-main.php:10 (internal) waits for Coroutine %d spawned at %s007-deadlock-report-main.php:8, suspended at %s007-deadlock-report-main.php:5 (waits_for_main) in %s007-deadlock-report-main.php on line 10

Warning: Deadlock: Coroutine %d spawned at %s007-deadlock-report-main.php:8, suspended at %s007-deadlock-report-main.php:5 (waits_for_main) waits for Coroutine %d spawned at %s007-deadlock-report-main.php:7, suspended at %s007-deadlock-report-main.php:10 (internal) in %s007-deadlock-report-main.php on line 5
waiter: Deadlock detected
main: Deadlock detected

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s007-deadlock-report-main.php:10
Stack trace:
#0 %s007-deadlock-report-main.php(10): Async\await()
#1 {main}
  thrown in %s007-deadlock-report-main.php on line 10
