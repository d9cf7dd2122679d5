--TEST--
async.debug_deadlock=1 prints the deadlock report before the DeadlockError
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=1
--FILE--
<?php
use function Async\{spawn, await};

function wa() {
    global $b;
    try { await($b); } catch (Async\AsyncCancellation $e) { echo "a: ", $e->getMessage(), "\n"; }
}
function wb() {
    global $a;
    try { await($a); } catch (Async\AsyncCancellation $e) { echo "b: ", $e->getMessage(), "\n"; }
}
$a = spawn('wa');
$b = spawn('wb');
echo "main end\n";
?>
--EXPECTF--
main end
=== DEADLOCK REPORT START ===
Coroutines waiting: 2, active_events: 0

Coroutine %d spawned at %s056-deadlock-report.php:12, suspended at %s056-deadlock-report.php:6 (wa)
  waiting for:
    - Coroutine %d spawned at %s056-deadlock-report.php:13, suspended at %s056-deadlock-report.php:10 (wb)

Coroutine %d spawned at %s056-deadlock-report.php:13, suspended at %s056-deadlock-report.php:10 (wb)
  waiting for:
    - Coroutine %d spawned at %s056-deadlock-report.php:12, suspended at %s056-deadlock-report.php:6 (wa)

=== DEADLOCK REPORT END   ===
a: Deadlock detected
b: Deadlock detected

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in [no active file]:0
Stack trace:
#0 [internal function]: Async\{drain}()
#1 {main}
  thrown in [no active file] on line 0
