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
} catch (Async\DeadlockError $e) {
    echo "main: ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
=== DEADLOCK REPORT START ===
Coroutines waiting: 2, active_events: 0

Main coroutine spawned at %s, suspended at %s057-deadlock-report-main.php:10 (%s)
  waiting for:
    - Coroutine %d spawned at %s057-deadlock-report-main.php:8, suspended at %s057-deadlock-report-main.php:5 (waits_for_main)

Coroutine %d spawned at %s057-deadlock-report-main.php:8, suspended at %s057-deadlock-report-main.php:5 (waits_for_main)
  waiting for:
    - %s

=== DEADLOCK REPORT END   ===
waiter: Deadlock detected
main: Deadlock detected: no active coroutines, 2 coroutines in waiting
