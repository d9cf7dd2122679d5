--TEST--
Future: awaiting a future nobody will complete is a deadlock; the report names the future
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=1
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await};

$s = new FutureState();
$f = new Future($s);
$co = spawn(function () use ($f) {
    try { $f->await(); } catch (Throwable $e) { echo "coroutine: ", get_class($e), ": ", $e->getMessage(), "\n"; }
});
try {
    await($f);
} catch (Async\AsyncCancellation $e) {
    echo "main: ", get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump($f->isCompleted());
$s->ignore();
?>
--EXPECTF--
Warning: Deadlock detected: 2 coroutines waiting, 0 active events: every waiting coroutine is cancelled in %s017-deadlock.php on line 11

Warning: Deadlock: Main coroutine spawned at %s017-deadlock.php:7, suspended at %s017-deadlock.php:11 (internal) waits for FutureState(pending) created at %s017-deadlock.php:5 in %s017-deadlock.php on line 11

Warning: Deadlock: Coroutine %d spawned at %s017-deadlock.php:7, suspended at %s017-deadlock.php:8 (%r(Closure::__invoke|\{closure:%s017-deadlock\.php:7\})%r) waits for FutureState(pending) created at %s017-deadlock.php:5 in %s017-deadlock.php on line 8
coroutine: Async\AsyncCancellation: Deadlock detected
main: Async\AsyncCancellation: Deadlock detected
bool(false)

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s017-deadlock.php:11
Stack trace:
#0 %s017-deadlock.php(11): Async\await()
#1 {main}
  thrown in %s017-deadlock.php on line 11
