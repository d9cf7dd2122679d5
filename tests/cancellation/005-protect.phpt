--TEST--
protect() defers cancellation until the closure returns; the value is then lost
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, protect, current_coroutine};
use Async\AsyncCancellation;

// No cancel: the closure's value is returned, also at top level.
var_dump(protect(fn() => "top"));
var_dump(await(spawn(fn() => protect(fn() => [1, 2]))));

// Cancel during protect(): the closure finishes (including its suspensions), then the first
// cancellation is thrown; later cancels are ignored.
$c = spawn(function () {
    try {
        $r = protect(function () {
            echo "protect start\n";
            delay(20);
            echo "protect after delay, requested=",
                var_export(current_coroutine()->isCancellationRequested(), true), "\n";
            suspend();
            echo "protect end\n";
            return "value";
        });
        echo "not reached: $r\n";
    } catch (AsyncCancellation $e) {
        echo "after protect: ", $e->getMessage(), "\n";
        throw $e;
    }
});
suspend();
$c->cancel(new AsyncCancellation("first"));
$c->cancel(new AsyncCancellation("second"));
var_dump($c->isCancellationRequested(), $c->isCancelled(), $c->isCompleted());
try {
    await($c);
} catch (AsyncCancellation $e) {
    echo "await: ", $e->getMessage(), "\n";
}
var_dump($c->isCancelled(), $c->isCancellationRequested());

// An exception thrown by the closure propagates normally.
try {
    protect(function () { throw new RuntimeException("inside protect"); });
} catch (RuntimeException $e) {
    echo $e->getMessage(), "\n";
}

// After protect() returns, cancellation is immediate again.
$d = spawn(function () {
    protect(fn() => delay(1));
    try {
        delay(10000);
    } catch (AsyncCancellation $e) {
        return "cancelled normally: " . $e->getMessage();
    }
});
delay(10);
$d->cancel();
var_dump(await($d));

// A cancel that arrives before the coroutine enters protect() is not deferred.
$e2 = spawn(function () {
    try {
        delay(10000);
    } catch (AsyncCancellation $e) {
        echo "cancelled before protect\n";
    }
    return protect(fn() => "protected after cancel");
});
suspend();
$e2->cancel();
var_dump(await($e2));
?>
--EXPECT--
string(3) "top"
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
protect start
bool(true)
bool(false)
bool(false)
protect after delay, requested=true
protect end
after protect: first
await: first
bool(true)
bool(false)
inside protect
string(39) "cancelled normally: Coroutine cancelled"
cancelled before protect
string(22) "protected after cancel"
