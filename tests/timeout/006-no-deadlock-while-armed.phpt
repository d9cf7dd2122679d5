--TEST--
timeout(): an armed Timeout is an active event (a wait on a never-completed future is not a deadlock); a disarmed one is not
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{await, timeout};

$s = new FutureState();
$s->ignore();
$f = new Future($s);
try { await($f, timeout(20)); } catch (Async\OperationCanceledException $e) { echo "timed out: ", $e->getPrevious()->getMessage(), "\n"; }

// An idle Timeout held in a variable does not keep a real deadlock from being detected.
$idle = timeout(100000);
try { await($f); } catch (Async\AsyncCancellation $e) { echo get_class($e), "\n"; }
var_dump($idle->isCompleted());
?>
--EXPECTF--
timed out: Timeout occurred after 20 milliseconds
Async\AsyncCancellation
bool(false)

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s006-no-deadlock-while-armed.php:12
Stack trace:
#0 %s006-no-deadlock-while-armed.php(12): Async\await()
#1 {main}
  thrown in %s006-no-deadlock-while-armed.php on line 12
