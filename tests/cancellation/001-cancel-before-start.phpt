--TEST--
cancel() before the coroutine starts: it stays queued with the cancellation pending, never runs its callable, and completes as cancelled on its turn
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};
use Async\AsyncCancellation;

$c = spawn(function () { echo "never runs\n"; return 1; });
var_dump($c->isStarted(), $c->isCompleted());
$c->cancel();
// Still queued with the cancellation pending (TrueAsync's order); it completes on its turn.
var_dump($c->isStarted(), $c->isCompleted(), $c->isCancelled(), $c->isCancellationRequested(), $c->isQueued());
suspend();
var_dump($c->isCompleted(), $c->isCancelled(), $c->isCancellationRequested());
delay(5);
try {
    await($c);
    echo "no exception\n";
} catch (AsyncCancellation $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
    var_dump($e === $c->getException());
}
var_dump($c->getResult());

// With a custom cancellation object, that object is what await() throws.
$custom = new AsyncCancellation("custom reason", 5);
$d = spawn(function () { echo "never runs either\n"; });
$d->cancel($custom);
$d->cancel(new AsyncCancellation("second request")); // the first reason stands
try {
    await($d);
} catch (AsyncCancellation $e) {
    var_dump($e === $custom, $e->getCode());
}
// A second cancel on a finished coroutine changes nothing.
$d->cancel(new AsyncCancellation("other"));
try { await($d); } catch (AsyncCancellation $e) { echo $e->getMessage(), "\n"; }
echo "end\n";
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
Async\AsyncCancellation: Coroutine cancelled
bool(true)
NULL
bool(true)
int(5)
custom reason
end
