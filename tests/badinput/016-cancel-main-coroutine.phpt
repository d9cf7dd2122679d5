--TEST--
Cancelling the main coroutine: from itself, from a coroutine while main waits, inside protect(); main can catch it and go on
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, protect, current_coroutine};
use Async\AsyncCancellation;

delay(0);
$main = current_coroutine();

// 1. Self-cancel: delivered at the next suspension point.
$main->cancel(new AsyncCancellation("main self"));
echo "still running, requested=", var_export($main->isCancellationRequested(), true), "\n";
try { delay(1); echo "not reached\n"; } catch (AsyncCancellation $e) { echo "1: ", $e->getMessage(), "\n"; }
delay(1);
echo "1: waits work again\n";

// 2. Cancelled by another coroutine while main awaits a third one.
$slow = spawn(fn() => delay(100000) ?? "slow");
spawn(function () use ($main) { delay(2); $main->cancel(new AsyncCancellation("from coroutine")); });
try { await($slow); echo "not reached\n"; } catch (AsyncCancellation $e) { echo "2: ", $e->getMessage(), "\n"; }
echo "2: the awaited coroutine is not cancelled: ", var_export($slow->isCancellationRequested(), true), "\n";
$slow->cancel();

// 3. Cancelled while inside protect(): deferred until the closure returns.
spawn(function () use ($main) { delay(2); $main->cancel(new AsyncCancellation("deferred")); });
try {
    protect(function () { delay(10); echo "3: protected part finished\n"; });
    echo "not reached\n";
} catch (AsyncCancellation $e) {
    echo "3: ", $e->getMessage(), "\n";
}

// 4. Cancelled with a shared exception object from two coroutines at once.
$shared = new AsyncCancellation("shared");
spawn(fn() => $main->cancel($shared));
spawn(fn() => $main->cancel($shared));
try { delay(5); echo "not reached\n"; } catch (AsyncCancellation $e) { echo "4: ", $e->getMessage(), " same=", var_export($e === $shared, true), "\n"; }

// 5. Main still works normally afterwards.
var_dump(await(spawn(fn() => "5: still fine")));

// 6. An uncaught cancellation of main ends the script quietly (spec §8.2: cancellations are not errors).
spawn(fn() => $main->cancel(new AsyncCancellation("final")));
delay(5);
echo "not reached\n";
?>
--EXPECTF--
still running, requested=true
1: main self
1: waits work again
2: from coroutine
2: the awaited coroutine is not cancelled: false
3: protected part finished
3: deferred
4: shared same=true
string(13) "5: still fine"
