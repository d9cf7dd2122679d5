--TEST--
pcntl_signal() handlers run at once while every coroutine waits in the reactor (pcntl_async_signals(true)); without async signals they still wait for pcntl_signal_dispatch()
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (!function_exists('pcntl_signal') || !function_exists('exec') || !function_exists('posix_kill')) die('skip pcntl, exec and posix needed');
?>
--EXTENSIONS--
posix
--FILE--
<?php
use function Async\{spawn, await, delay};

$pid = getmypid();
function kill_soon(int $pid): void {
    // Another process sends the signal while this one sits in the reactor.
    exec("(sleep 0.2; kill -USR1 $pid) > /dev/null 2>&1 &");
}

// 1. Async signals: the handler cancels a coroutine that would otherwise sleep for 10 s; if the
//    handler only ran when the timer fired, the sleeper would complete first.
pcntl_async_signals(true);
$sleeper = spawn(fn() => delay(10000));
pcntl_signal(SIGUSR1, function (int $signo) use ($sleeper) {
    echo "handler: signal $signo\n";
    $sleeper->cancel();
});
kill_soon($pid);
try {
    await($sleeper);
    echo "sleeper completed: the handler came late\n";
} catch (Async\AsyncCancellation $e) {
    echo "sleeper cancelled by the handler\n";
}

// 2. Without async signals nothing runs the handler behind the program's back.
pcntl_async_signals(false);
$log = [];
pcntl_signal(SIGUSR1, function () use (&$log) { $log[] = 'handler'; });
$waiter = spawn(function () use (&$log) {
    $log[] = 'waiting';
    delay(1500); // the signal comes after 200 ms, during this wait
    $log[] = 'woke';
    pcntl_signal_dispatch();
    $log[] = 'dispatched';
});
// Sent from this process, by a timer ordered before the waiter's: an outside sender can come
// after the whole wait where starting a process is slow (run-tests -m runs the helper shell,
// sleep and kill under valgrind too).
spawn(function () use ($pid) {
    delay(200);
    posix_kill($pid, SIGUSR1);
});
await($waiter);
echo implode(' > ', $log), "\n";
pcntl_signal(SIGUSR1, SIG_DFL);
echo "done\n";
?>
--EXPECT--
handler: signal 10
sleeper cancelled by the handler
waiting > woke > handler > dispatched
done
