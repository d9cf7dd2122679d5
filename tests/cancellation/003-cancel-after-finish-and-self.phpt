--TEST--
cancel() after completion is a no-op; self-cancel is delivered at the next suspension point
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, current_coroutine};
use Async\AsyncCancellation;

// After finish: result kept, no exception.
$c = spawn(fn() => 5);
await($c);
$c->cancel();
var_dump($c->isCancelled(), $c->isCancellationRequested(), await($c), $c->getException());

// After failure: the original exception stays.
$f = spawn(function () { throw new LogicException("orig"); });
try { await($f); } catch (LogicException $e) {}
$f->cancel(new AsyncCancellation("late"));
try { await($f); } catch (Throwable $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }

// Self-cancel: code continues until the next suspension point.
$s = spawn(function () {
    $me = current_coroutine();
    $me->cancel(new AsyncCancellation("self"));
    echo "still running, requested=", var_export($me->isCancellationRequested(), true),
        " cancelled=", var_export($me->isCancelled(), true), "\n";
    $x = 0;
    for ($i = 0; $i < 1000; $i++) { $x += $i; }
    echo "sync work done: $x\n";
    try {
        suspend();
        echo "not reached\n";
    } catch (AsyncCancellation $e) {
        echo "at suspension point: ", $e->getMessage(), "\n";
        throw $e;
    }
});
try {
    await($s);
} catch (AsyncCancellation $e) {
    echo "await: ", $e->getMessage(), "\n";
}
var_dump($s->isCancelled());

// Self-cancel delivered by delay() as well.
$s2 = spawn(function () {
    current_coroutine()->cancel();
    delay(1);
    echo "not reached\n";
});
try { await($s2); } catch (AsyncCancellation $e) { echo "delay: ", $e->getMessage(), "\n"; }

?>
--EXPECT--
bool(false)
bool(false)
int(5)
NULL
LogicException: orig
still running, requested=true cancelled=false
sync work done: 499500
at suspension point: self
await: self
bool(true)
delay: Coroutine cancelled
