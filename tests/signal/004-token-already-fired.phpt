--TEST--
signal(): a token that has already fired gives a Future that is already rejected, and no wait is armed
--EXTENSIONS--
posix
pcntl
--FILE--
<?php
use Async\{Signal, FutureState, Future, OperationCanceledException};
use function Async\{signal, spawn, await, delay, timeout};

function show(Future $f): void {
    var_dump($f->isCompleted());
    try {
        await($f);
        echo "resolved\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}

// A timeout() that went off while guarding something else.
$t = timeout(5);
try { await(spawn(fn() => delay(1000)), $t); } catch (OperationCanceledException $e) {}
show(signal(Signal::SIGUSR1, $t));

// A finished coroutine, a completed and a failed Future.
$c = spawn(fn() => 1);
await($c);
show(signal(Signal::SIGUSR1, $c));
show(signal(Signal::SIGUSR1, Future::completed(1)));
$failed = Future::failed(new RuntimeException("already failed"));
show(signal(Signal::SIGUSR1, $failed));

// No wait was armed by any of them: SIGUSR1 still goes to the pcntl handler.
pcntl_signal(SIGUSR1, function () { echo "pcntl handler\n"; });
show(signal(Signal::SIGUSR1, $t));
posix_kill(getmypid(), SIGUSR1);
pcntl_signal_dispatch();
echo "end\n";
?>
--EXPECT--
bool(true)
Async\TimeoutException: Timeout occurred after 5 milliseconds
bool(true)
Async\AsyncCancellation: Signal wait cancelled
bool(true)
Async\AsyncCancellation: Signal wait cancelled
bool(true)
RuntimeException: already failed
bool(true)
Async\TimeoutException: Timeout occurred after 5 milliseconds
pcntl handler
end
