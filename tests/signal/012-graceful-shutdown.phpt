--TEST--
signal(): a graceful shutdown (an unobserved error) rejects pending waits with AsyncCancellation("Graceful shutdown"), so the process ends instead of waiting for a signal
--FILE--
<?php
use Async\Signal;
use function Async\{signal, spawn, delay};

$plain = signal(Signal::SIGUSR1);
$plain->ignore();
$chained = signal(Signal::SIGUSR2)->map(fn() => "never")->catch(function (Throwable $e) {
    echo "never runs: chain callables are not started during a graceful shutdown\n";
});
$chained->ignore();
register_shutdown_function(function () use ($plain) {
    echo "shutdown function: ", $plain->isCompleted() ? "wait ended" : "still pending", "\n";
    try {
        $plain->await();
    } catch (Async\AsyncCancellation $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
});
spawn(function () {
    try {
        delay(10000);
    } catch (Async\AsyncCancellation $e) {
        // A wait asked for during the shutdown is not armed: it comes back rejected.
        $f = signal(Signal::SIGUSR1);
        echo "cancelled coroutine: ", $e->getMessage(), ", new wait completed: ", var_export($f->isCompleted(), true), "\n";
        $f->ignore();
    }
});
spawn(function () {
    delay(1);
    throw new LogicException("boom");
});
echo "script end\n";
?>
--EXPECTF--
script end
cancelled coroutine: Graceful shutdown, new wait completed: true

Fatal error: Uncaught LogicException: boom in %s:%d
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in %s on line %d
shutdown function: wait ended
Async\AsyncCancellation: Graceful shutdown
