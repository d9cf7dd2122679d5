--TEST--
Scope::cancel() refuses new spawns at once, but the scope is closed only by its disposal (at once when already empty, else when its last coroutine ends); a coroutine that cancels its own scope and returns normally gives its result to await() and is cancelled all the same, as its scope is (isCancelled() true, issue #39 item 8)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\{Scope, AsyncCancellation};
use function Async\{await, delay, suspend};

function state(string $label, Scope $s): void
{
    printf("%s: cancelled=%s closed=%s finished=%s\n", $label, json_encode($s->isCancelled()),
        json_encode($s->isClosed()), json_encode($s->isFinished()));
}

$s = new Scope();
$child = $s->spawn(function () {
    try {
        delay(5000);
    } finally {
        echo "child unwinds\n";
    }
});
suspend();
$s->cancel();
state('after cancel, child alive', $s);
try {
    $s->spawn(fn() => 1);
} catch (Async\AsyncException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    await($child);
} catch (AsyncCancellation $e) {
    echo 'child: ', $e->getMessage(), "\n";
}
state('child gone', $s);
try {
    $s->spawn(fn() => 1);
} catch (Async\AsyncException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

$empty = new Scope();
$empty->cancel();
state('empty scope cancelled', $empty);

/* self-cancel, never delivered: a normal result, and cancelled, as its scope is */
$own = new Scope();
$co = $own->spawn(function () use ($own) {
    $own->cancel();
    return 'normal';
});
var_dump(await($co), $co->isCancelled(), $co->isCompleted(), $own->isCancelled());

/* self-cancel delivered at the next suspension: await throws, cancelled */
$own2 = new Scope();
$co2 = $own2->spawn(function () use ($own2) {
    $own2->cancel();
    suspend();
    return 'not reached';
});
try {
    await($co2);
} catch (AsyncCancellation $e) {
    echo 'await: ', $e->getMessage(), "\n";
}
var_dump($co2->isCancelled());
?>
--EXPECT--
after cancel, child alive: cancelled=true closed=false finished=false
Async\AsyncException: Cannot spawn a coroutine in a closed scope
child unwinds
child: Scope was cancelled
child gone: cancelled=true closed=true finished=true
Async\AsyncException: Cannot spawn a coroutine in a closed scope
empty scope cancelled: cancelled=true closed=true finished=true
string(6) "normal"
bool(true)
bool(true)
bool(true)
await: Scope was cancelled
bool(true)
