--TEST--
await($x, $token): a token that completes first aborts the wait with OperationCanceledException
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

// Margins between the delays stretch under valgrind, so the order of events never changes.
$f = (int) slow_factor();
$long = spawn(function () use ($f) { delay(100 * $f); return "long"; });

// Token completes with a value: previous is null.
$tok = spawn(fn() => delay(10));
try {
    await($long, $tok);
    echo "not reached\n";
} catch (Async\OperationCanceledException $e) {
    echo get_class($e), ": ", $e->getMessage(), ", previous: ", var_export($e->getPrevious(), true), "\n";
}
// The awaited coroutine itself is not cancelled.
var_dump($long->isCompleted(), $long->isCancelled());

// Token fails: its exception becomes previous.
$tok2 = spawn(function () { delay(10); throw new Exception("token error"); });
try {
    await($long, $tok2);
} catch (Async\OperationCanceledException $e) {
    echo "previous: ", get_class($e->getPrevious()), ": ", $e->getPrevious()->getMessage(), "\n";
}

// An already-fired token throws immediately.
try {
    await($long, $tok2);
} catch (Async\OperationCanceledException $e) {
    echo "already fired: ", $e->getPrevious()->getMessage(), "\n";
}

// A token that does not fire in time does not matter.
$slowTok = spawn(fn() => delay(1000 * $f));
var_dump(await($long, $slowTok));
$slowTok->cancel();

// An already completed awaitable wins over an already fired token (replay first).
var_dump(await($long, $tok));

// OperationCanceledException is a cancellation.
var_dump($e instanceof Async\AsyncCancellation);
?>
--EXPECT--
Async\OperationCanceledException: Operation has been cancelled, previous: NULL
bool(false)
bool(false)
previous: Exception: token error
already fired: token error
string(4) "long"
string(4) "long"
bool(true)
