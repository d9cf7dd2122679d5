--TEST--
signal(): a wait still pending when the script ends holds the script open (a signal may still come); with a token it ends when the token fires
--FILE--
<?php
use Async\Signal;
use function Async\{signal, timeout};

// Documented behaviour: an armed wait is an active event. Without the token this script would
// wait for SIGUSR1 forever after its last line; with it, the drain after the script runs until
// the token fires and rejects the Future, and only then do the shutdown functions run.
$t0 = hrtime(true);
register_shutdown_function(function () use ($t0) {
    $ms = (hrtime(true) - $t0) / 1e6;
    // libuv timers count whole milliseconds of a cached clock: one may fire up to 1 ms early.
    echo "shutdown function after >= 50 ms: ", var_export($ms >= 49, true), "\n";
});
signal(Signal::SIGUSR1, timeout(50))->catch(function (Throwable $e) {
    echo "after the script: ", get_class($e), "\n";
})->ignore();
echo "script end\n";
?>
--EXPECT--
script end
after the script: Async\TimeoutException
shutdown function after >= 50 ms: true
