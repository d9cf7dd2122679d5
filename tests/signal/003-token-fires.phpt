--TEST--
signal(): a token that fires rejects the Future with the token's own exception, or AsyncCancellation("Signal wait cancelled")
--EXTENSIONS--
posix
pcntl
--FILE--
<?php
use Async\{Signal, FutureState, Future, TimeoutException, AsyncCancellation, OperationCanceledException};
use function Async\{signal, spawn, await, delay, timeout};

function outcome(Future $f): string {
    try {
        return 'resolved ' . await($f)->name;
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}

// timeout(): the raw TimeoutException, not OperationCanceledException.
$t0 = hrtime(true);
$f = signal(Signal::SIGUSR1, timeout(30));
echo outcome($f), "\n";
// libuv timers count whole milliseconds of a cached clock: one may fire up to 1 ms early.
var_dump((hrtime(true) - $t0) / 1e6 >= 29);

// A FutureState token completed with a value: no exception of its own.
$state = new FutureState();
$f = signal(Signal::SIGUSR1, new Future($state));
spawn(fn() => $state->complete(42));
echo outcome($f), "\n";

// A FutureState token failing: its exception, as is (no "Unhandled exception in Future" either).
$state = new FutureState();
$f = signal(Signal::SIGUSR1, new Future($state));
spawn(fn() => $state->error(new LogicException("boom")));
echo outcome($f), "\n";

// A coroutine token that returns, and one that is cancelled.
$f = signal(Signal::SIGUSR1, spawn(function () { delay(5); return 1; }));
echo outcome($f), "\n";
$c = spawn(fn() => delay(10000));
$f = signal(Signal::SIGUSR1, $c);
spawn(fn() => $c->cancel());
echo outcome($f), "\n";

// The token's waiters and the wait's waiters see it at the same time.
$t = timeout(20);
$f = signal(Signal::SIGUSR1, $t);
$w = spawn(function () use ($t) {
    $inner = spawn(fn() => delay(10000));
    try { await($inner, $t); } catch (OperationCanceledException $e) {
        echo "token waiter: ", get_class($e->getPrevious()), "\n";
    }
    $inner->cancel();
});
echo outcome($f), "\n";
await($w);

// Every wait ended: SIGUSR1 is back to what it was before them (a pcntl handler here), not
// to libuv's SIG_DFL, which would kill the process.
pcntl_signal(SIGUSR1, function () { echo "pcntl handler\n"; });
$f = signal(Signal::SIGUSR1, timeout(5));
echo outcome($f), "\n";
posix_kill(getmypid(), SIGUSR1);
pcntl_signal_dispatch();
echo "alive\n";
?>
--EXPECT--
Async\TimeoutException: Timeout occurred after 30 milliseconds
bool(true)
Async\AsyncCancellation: Signal wait cancelled
LogicException: boom
Async\AsyncCancellation: Signal wait cancelled
Async\AsyncCancellation: Coroutine cancelled
Async\TimeoutException: Timeout occurred after 20 milliseconds
token waiter: Async\TimeoutException
Async\TimeoutException: Timeout occurred after 5 milliseconds
pcntl handler
alive
