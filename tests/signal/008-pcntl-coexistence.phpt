--TEST--
signal(): coexists with pcntl_signal(): other signals keep their handlers; a pcntl handler of the waited signal, installed before or during the wait, still runs for the wait's delivery and has the signal back afterwards
--EXTENSIONS--
posix
pcntl
--FILE--
<?php
use Async\Signal;
use function Async\{signal, spawn, await, delay};

// Handlers run when pcntl_signal_dispatch() is called: deterministic output order.
pcntl_signal(SIGUSR2, function ($sig) { echo "pcntl SIGUSR2\n"; });
pcntl_signal(SIGUSR1, function ($sig) { echo "pcntl SIGUSR1\n"; });

// While the wait is armed, SIGUSR1 goes to the wait and is forwarded to pcntl's handler too;
// SIGUSR2 still reaches pcntl.
$f = signal(Signal::SIGUSR1);
spawn(function () {
    posix_kill(getmypid(), SIGUSR2);
    pcntl_signal_dispatch();
    delay(1);
    posix_kill(getmypid(), SIGUSR1);
});
$case = await($f);
echo "wait: ", $case->name, "\n";

// The wait is over: both signals are pcntl's again.
posix_kill(getmypid(), SIGUSR1);
pcntl_signal_dispatch();
posix_kill(getmypid(), SIGUSR2);
pcntl_signal_dispatch();

// pcntl_signal() for the waited signal while the wait is armed: a signal raised before the loop
// runs again is pcntl's alone; once the loop runs, the wait has the signal back (the newer
// handler is forwarded to), and when the wait ends the newer handler stays.
$g = signal(Signal::SIGUSR1);
pcntl_signal(SIGUSR1, function () { echo "newer pcntl SIGUSR1\n"; });
posix_kill(getmypid(), SIGUSR1);
pcntl_signal_dispatch();
delay(5);
var_dump($g->isCompleted());
$g->cancel();
posix_kill(getmypid(), SIGUSR1);
pcntl_signal_dispatch();

// Two waits on one signal: the disposition comes back when the last one ends.
$a = signal(Signal::SIGUSR2);
$b = signal(Signal::SIGUSR2);
$a->cancel();
posix_kill(getmypid(), SIGUSR2); // $b still holds it
$case = await($b);
echo "b: ", $case->name, "\n";
posix_kill(getmypid(), SIGUSR2);
pcntl_signal_dispatch();
echo "end\n";
?>
--EXPECT--
pcntl SIGUSR2
wait: SIGUSR1
pcntl SIGUSR1
pcntl SIGUSR1
pcntl SIGUSR2
newer pcntl SIGUSR1
bool(false)
newer pcntl SIGUSR1
b: SIGUSR2
pcntl SIGUSR2
pcntl SIGUSR2
end
