--TEST--
signal(): exit() in a coroutine while main awaits a signal ends the process (the wait is rejected, not waited for)
--FILE--
<?php
use Async\Signal;
use function Async\{signal, spawn, await, delay};

$f = signal(Signal::SIGUSR1);
register_shutdown_function(function () use ($f) {
    echo "shutdown: ", $f->isCompleted() ? "wait ended" : "still pending", "\n";
});
spawn(function () {
    delay(1);
    echo "exit\n";
    exit(3);
});
await($f);
echo "not reached\n";
?>
--EXPECT--
exit
shutdown: wait ended
