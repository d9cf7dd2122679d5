--TEST--
await_*: cancelling the waiting coroutine ends the wait with its cancellation; the triggers go on, the helper's generator is stopped, nothing stays subscribed
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState};
use function Async\{await_all, await_all_or_fail, await, spawn, delay, suspend};

$state = new FutureState();
$worker = spawn(function () { delay(20); return 'worker result'; });
$waiter = spawn(function () use ($state, $worker) {
    try {
        await_all(['f' => new Future($state), 'w' => $worker]);
        return 'not cancelled';
    } catch (Async\AsyncCancellation $e) {
        return 'waiter: ' . describe($e);
    }
});
suspend();
$waiter->cancel(new Async\AsyncCancellation('stop waiting'));
echo await($waiter), "\n";
echo "subscribers left: ", count($state->getAwaitingInfo()), "\n";
echo "worker: ", await($worker), ", cancelled: ", var_export($worker->isCancelled(), true), "\n";
$state->complete('completed later, harmlessly');

// A waiter consuming a generator: the generator is stopped at its suspension point.
$log = [];
$gen = (function () use (&$log) {
    try {
        yield spawn(fn() => 1);
        $log[] = 'generator suspends';
        delay(1000);
        $log[] = 'not reached';
    } finally {
        $log[] = 'generator finally';
    }
})();
$waiter = spawn(function () use ($gen) {
    try { await_all($gen); } catch (Async\AsyncCancellation $e) { return 'waiter: ' . $e->getMessage(); }
});
suspend();
suspend();
$waiter->cancel();
echo await($waiter), "\n";
suspend();
echo implode(', ', $log), "\n";

// Cancelled while waiting for the still-running coroutines after the decision.
$slow = spawn(function () { delay(30); return 'slow'; });
$waiter = spawn(function () use ($slow) {
    try {
        await_all_or_fail([spawn(fn() => throw new LogicException('decides')), $slow]);
    } catch (Throwable $e) { return 'waiter: ' . describe($e); }
});
suspend(); // the waiter subscribes
suspend(); // the failure decides
suspend(); // the waiter waits for $slow
$waiter->cancel();
echo await($waiter), "\n";
echo "slow: ", await($slow), "\n";

// Cancelled before it ever ran: the wait never starts.
$never = spawn(fn() => await_all([spawn(fn() => 'x')]));
$never->cancel();
try { await($never); } catch (Async\AsyncCancellation $e) { echo "not started: ", $e->getMessage(), "\n"; }
?>
--EXPECT--
waiter: Async\AsyncCancellation(stop waiting)
subscribers left: 0
worker: worker result, cancelled: false
waiter: Coroutine cancelled
generator suspends, generator finally
waiter: Async\AsyncCancellation(Coroutine cancelled)
slow: slow
not started: Coroutine cancelled
