--TEST--
cancel() of a suspended coroutine wakes it with the cancellation at its suspension point
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};
use Async\AsyncCancellation;

$start = hrtime(true);
$c = spawn(function () {
    try {
        delay(10000);
        echo "not reached\n";
    } catch (AsyncCancellation $e) {
        echo "caught in coroutine: ", $e->getMessage(), "\n";
        throw $e;
    } finally {
        echo "finally in coroutine\n";
    }
});
suspend();
var_dump($c->isSuspended());
$c->cancel();
var_dump($c->isCancellationRequested(), $c->isCancelled());
try {
    await($c);
} catch (AsyncCancellation $e) {
    echo "await: ", $e->getMessage(), "\n";
}
var_dump($c->isCancelled(), $c->isCompleted());
// The 10 s timer did not keep us waiting.
var_dump((hrtime(true) - $start) / 1e9 < 5);

// Suspended in await() on another coroutine.
$blocker = spawn(fn() => delay(10000));
$w = spawn(function () use ($blocker) {
    try { await($blocker); } catch (AsyncCancellation $e) { return "waiter got " . $e->getMessage(); }
});
suspend();
$w->cancel(new AsyncCancellation("stop waiting"));
var_dump(await($w));
// Cancelling the waiter does not cancel what it waited for.
var_dump($blocker->isCompleted(), $blocker->isCancelled());
$blocker->cancel();

// A coroutine may swallow the cancellation and return normally.
$s = spawn(function () {
    try { delay(10000); } catch (AsyncCancellation $e) { }
    return "swallowed";
});
suspend();
$s->cancel();
var_dump(await($s), $s->getException());
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
caught in coroutine: Coroutine cancelled
finally in coroutine
await: Coroutine cancelled
bool(true)
bool(true)
bool(true)
string(23) "waiter got stop waiting"
bool(false)
bool(false)
string(9) "swallowed"
NULL
