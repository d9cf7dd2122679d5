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
} catch (Async\DeadlockError $e) {
    echo "main: ", get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump($f->isCompleted());
$s->ignore();
?>
--EXPECTF--
=== DEADLOCK REPORT START ===
Coroutines waiting: 2, active_events: 0

%a    - FutureState(pending) created at %s017-deadlock.php:5
%a=== DEADLOCK REPORT END   ===
coroutine: Async\AsyncCancellation: Deadlock detected
main: Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting
bool(false)
