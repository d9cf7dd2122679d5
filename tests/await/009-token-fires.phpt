--TEST--
await_*: a cancellation token that fires ends the wait with OperationCanceledException (previous = the token's error); the triggers are not cancelled
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState};
use function Async\{await_any_or_fail, await_first_success, await_all_or_fail, await_all, await_any_of_or_fail, await_any_of, await, spawn, delay, timeout};

$calls = [
    'await_any_or_fail' => fn($t, $c) => await_any_or_fail($t, $c),
    'await_first_success' => fn($t, $c) => await_first_success($t, $c),
    'await_all_or_fail' => fn($t, $c) => await_all_or_fail($t, $c),
    'await_all' => fn($t, $c) => await_all($t, $c),
    'await_any_of_or_fail' => fn($t, $c) => await_any_of_or_fail(2, $t, $c),
    'await_any_of' => fn($t, $c) => await_any_of(2, $t, $c),
];
foreach ($calls as $name => $call) {
    // One trigger fails and one succeeds quickly, the third needs a future nobody completes yet:
    // none of the functions is decided before the timeout.
    $state = new FutureState();
    $slow = new Future($state);
    $quick = spawn(fn() => 'quick');
    $failing = spawn(fn() => throw new RuntimeException('failed'));
    $triggers = $name === 'await_first_success' || $name === 'await_any_or_fail'
        ? ['slow' => $slow] : ['quick' => $quick, 'slow' => $slow];
    $t0 = hrtime(true);
    try {
        $call($triggers, timeout(20));
        echo "$name: no exception\n";
    } catch (Async\OperationCanceledException $e) {
        $ms = (hrtime(true) - $t0) / 1e6;
        echo "$name: ", describe($e), $ms >= 19 ? "" : " (too early: $ms ms)", "\n";
    }
    // The trigger itself was not cancelled: it can still complete and be awaited.
    $state->complete("done later");
    echo "  slow: ", await($slow), ", quick: ", await($quick), "\n";
    try { await($failing); } catch (RuntimeException $e) {}
}

// Coroutine triggers keep running after the token fired.
$worker = spawn(function () { delay(40); return 'worker finished'; });
try {
    await_all(['w' => $worker], timeout(5));
} catch (Async\OperationCanceledException $e) {
    echo describe($e), "; worker cancelled: ", var_export($worker->isCancelled(), true), "\n";
}
echo await($worker), "\n";

// Any Awaitable is a token: a Future that fails, a coroutine that finishes.
$tokenState = new FutureState();
spawn(function () use ($tokenState) { delay(5); $tokenState->error(new DomainException('stop now')); });
try { await_all([new Future(new FutureState())], new Future($tokenState)); } catch (Async\OperationCanceledException $e) { echo describe($e), "\n"; }
$stopper = spawn(function () { delay(5); return 'stopper done'; });
$never = new FutureState();
try { await_any_or_fail([new Future($never)], $stopper); } catch (Async\OperationCanceledException $e) { echo describe($e), "\n"; }
$never->ignore();
?>
--EXPECT--
await_any_or_fail: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 20 milliseconds)
  slow: done later, quick: quick
await_first_success: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 20 milliseconds)
  slow: done later, quick: quick
await_all_or_fail: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 20 milliseconds)
  slow: done later, quick: quick
await_all: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 20 milliseconds)
  slow: done later, quick: quick
await_any_of_or_fail: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 20 milliseconds)
  slow: done later, quick: quick
await_any_of: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 20 milliseconds)
  slow: done later, quick: quick
Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 5 milliseconds); worker cancelled: false
worker finished
Async\OperationCanceledException(Operation has been cancelled) <- DomainException(stop now)
Async\OperationCanceledException(Operation has been cancelled)
