--TEST--
Future: await()/Future::await() with cancellation tokens (timeout(), futures), already-fired tokens, futures as tokens
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState, OperationCanceledException, TimeoutException};
use function Async\{spawn, await, delay, timeout};

function explain(Throwable $e) {
    $p = $e->getPrevious();
    return get_class($e) . ": " . $e->getMessage() . ($p ? " <- " . get_class($p) . ": " . $p->getMessage() : "");
}

// Future::await() with a timeout token; the awaited future is not cancelled by it.
$s = new FutureState();
$f = new Future($s);
try { $f->await(timeout(20)); } catch (OperationCanceledException $e) { echo explain($e), "\n"; }
var_dump($f->isCompleted(), $f->isCancelled());
spawn(fn() => $s->complete("later"));
var_dump($f->await(timeout(1000)));

// Same through Async\await().
$s = new FutureState();
try { await(new Future($s), timeout(10)); } catch (OperationCanceledException $e) { echo explain($e), "\n"; }
$s->ignore();

// A future as the token: its rejection is the previous, a plain completion fires it too.
$tokState = new FutureState();
$token = new Future($tokState);
$slow = spawn(function () { delay(200); return "slow"; });
spawn(function () use ($tokState) { delay(5); $tokState->error(new RuntimeException("stop")); });
try { await($slow, $token); } catch (OperationCanceledException $e) { echo explain($e), "\n"; }
$tok2 = new FutureState();
spawn(fn() => $tok2->complete(1));
try { (new Future(new FutureState))->ignore()->await(new Future($tok2)); } catch (OperationCanceledException $e) { echo explain($e), "\n"; }

// An already-fired token throws at once, without suspending.
$ran = false;
$other = spawn(function () use (&$ran) { $ran = true; });
try { (new Future(new FutureState))->ignore()->await($token); } catch (OperationCanceledException $e) { echo "at once: ", explain($e), "\n"; }
var_dump($ran);
$fired = Future::failed(new LogicException("already"));
try { await($slow, $fired); } catch (OperationCanceledException $e) { echo "at once: ", explain($e), "\n"; }

// A finished awaitable wins over a fired token (replay first).
var_dump(Future::completed("replayed")->await($fired));

// A token that never fires changes nothing.
$quiet = new FutureState();
$quiet->ignore();
var_dump(await($slow, new Future($quiet)));
try { Future::completed()->ignore()->await("x"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
Async\OperationCanceledException: Operation has been cancelled <- Async\TimeoutException: Timeout occurred after 20 milliseconds
bool(false)
bool(false)
string(5) "later"
Async\OperationCanceledException: Operation has been cancelled <- Async\TimeoutException: Timeout occurred after 10 milliseconds
Async\OperationCanceledException: Operation has been cancelled <- RuntimeException: stop
Async\OperationCanceledException: Operation has been cancelled
at once: Async\OperationCanceledException: Operation has been cancelled <- RuntimeException: stop
bool(false)
at once: Async\OperationCanceledException: Operation has been cancelled <- LogicException: already
string(8) "replayed"
string(4) "slow"
Async\Future::await(): Argument #1 ($cancellation) must be of type ?Async\Completable, string given
