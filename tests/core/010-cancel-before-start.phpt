--TEST--
cancel() before the coroutine starts: it never runs and completes as cancelled
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
var_dump($c->isStarted(), $c->isCompleted(), $c->isCancelled());
suspend();
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
bool(true)
bool(true)
Async\AsyncCancellation: Coroutine cancelled
bool(true)
NULL
bool(true)
int(5)
custom reason
end
