--TEST--
Timeout::cancel(): stops the timer and completes the Timeout with the cancellation (current and later waiters see it)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{AsyncCancellation, OperationCanceledException};
use function Async\{spawn, await, delay, timeout, suspend};

function explain(Throwable $e) {
    $p = $e->getPrevious();
    return get_class($e) . ($p ? " <- " . get_class($p) . ": " . $p->getMessage() : "");
}

// Cancelled before use.
$t = timeout(1000);
$t->cancel();
var_dump($t->isCompleted(), $t->isCancelled());
try { await(spawn(fn() => delay(5)), $t); } catch (OperationCanceledException $e) { echo "later waiter: ", explain($e), "\n"; }
try { await($t); } catch (AsyncCancellation $e) { echo "awaited: ", get_class($e), ": ", $e->getMessage(), "\n"; }

// Cancelled while a coroutine waits on it: the waiter wakes now, not after 1000 ms.
$t = timeout(1000);
$start = hrtime(true);
$waiter = spawn(function () use ($t) {
    try { await(spawn(fn() => delay(2000)), $t); } catch (OperationCanceledException $e) { return explain($e); }
});
suspend();
$mine = new AsyncCancellation("stop waiting");
$t->cancel($mine);
echo await($waiter), "\n";
var_dump((hrtime(true) - $start) / 1e6 < 500);

// No-op once fired, or cancelled twice.
$t = timeout(5);
try { await(timeout(1000000), $t); } catch (OperationCanceledException $e) { echo "fired: ", explain($e), "\n"; }
$t->cancel();
var_dump($t->isCompleted(), $t->isCancelled());
$t2 = timeout(5);
$t2->cancel(new AsyncCancellation("first"));
$t2->cancel(new AsyncCancellation("second"));
try { await($t2); } catch (AsyncCancellation $e) { echo $e->getMessage(), "\n"; }
try { $t2->cancel(new Exception("wrong")); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }

// The cancelled timer keeps nothing in the loop: the script ends at once.
$t3 = timeout(5000);
$w = spawn(fn() => await(spawn(fn() => 1), $t3));
$t3->cancel();
?>
--EXPECT--
bool(true)
bool(true)
later waiter: Async\OperationCanceledException <- Async\AsyncCancellation: Timeout has been cancelled
awaited: Async\AsyncCancellation: Timeout has been cancelled
Async\OperationCanceledException <- Async\AsyncCancellation: stop waiting
bool(true)
fired: Async\OperationCanceledException <- Async\TimeoutException: Timeout occurred after 5 milliseconds
bool(true)
bool(false)
first
Async\Timeout::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, Exception given
