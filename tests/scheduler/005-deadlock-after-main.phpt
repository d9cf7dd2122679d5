--TEST--
Two coroutines awaiting each other after the main script: cancelled, then Fatal error DeadlockError
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

function wa() {
    global $b;
    try { await($b); } catch (Async\AsyncCancellation $e) { echo "a: ", $e->getMessage(), "\n"; }
    finally { echo "a: finally\n"; }
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
a: Deadlock detected
a: finally
b: Deadlock detected

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s005-deadlock-after-main.php:%d
Stack trace:
#0 {main}
  thrown in %s005-deadlock-after-main.php on line %d
