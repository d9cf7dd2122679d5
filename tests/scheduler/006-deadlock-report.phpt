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

Warning: Deadlock detected: 2 coroutines waiting, 0 active events: every waiting coroutine is cancelled in %s006-deadlock-report.php on line 12

Warning: Deadlock: Coroutine %d spawned at %s006-deadlock-report.php:12, suspended at %s006-deadlock-report.php:6 (wa) waits for Coroutine %d spawned at %s006-deadlock-report.php:13, suspended at %s006-deadlock-report.php:10 (wb) in %s006-deadlock-report.php on line 6

Warning: Deadlock: Coroutine %d spawned at %s006-deadlock-report.php:13, suspended at %s006-deadlock-report.php:10 (wb) waits for Coroutine %d spawned at %s006-deadlock-report.php:12, suspended at %s006-deadlock-report.php:6 (wa) in %s006-deadlock-report.php on line 10
a: Deadlock detected
b: Deadlock detected

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s006-deadlock-report.php:12
Stack trace:
#0 {main}
  thrown in %s006-deadlock-report.php on line 12
