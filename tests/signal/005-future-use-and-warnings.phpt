--TEST--
signal(): the Future works with await(), Future::await(), map() and catch(); no "never used" warning when it was used, the usual ones when it was not
--EXTENSIONS--
posix
--FILE--
<?php
use Async\Signal;
use function Async\{signal, spawn, await, delay, timeout};

function raise_soon(int $sig): void {
    spawn(function () use ($sig) { delay(1); posix_kill(getmypid(), $sig); });
}

// await(), then dropped: used, no warning.
$f = signal(Signal::SIGUSR1);
raise_soon(SIGUSR1);
echo await($f)->name, "\n";
unset($f);

// Future::await() with a token that does not fire.
$f = signal(Signal::SIGUSR2);
raise_soon(SIGUSR2);
echo $f->await(timeout(5000))->name, "\n";
unset($f);

// map(): the chain is the use.
$mapped = signal(Signal::SIGUSR1)->map(fn(Signal $s) => "mapped {$s->name}");
raise_soon(SIGUSR1);
echo await($mapped), "\n";

// catch() observes a token's error.
$caught = signal(Signal::SIGUSR1, timeout(5))->catch(fn(Throwable $e) => "caught " . get_class($e));
echo await($caught), "\n";

// ignore(): nothing to say even though nobody looks.
signal(Signal::SIGUSR1, timeout(5))->ignore();
delay(30);
echo "--- unused ones below ---\n";

// Really unused: resolved, then dropped without a look.
$f = signal(Signal::SIGUSR2);
posix_kill(getmypid(), SIGUSR2);
delay(1);
var_dump($f->isCompleted());
unset($f);

// Rejected by its token and never observed.
$f = signal(Signal::SIGUSR2, timeout(5));
delay(30);
unset($f);
echo "end\n";
?>
--EXPECTF--
SIGUSR1
SIGUSR2
mapped SIGUSR1
caught Async\TimeoutException
--- unused ones below ---
bool(true)

Warning: Future created at %s005-future-use-and-warnings.php:%d was never used; call await(), map(), catch(), finally() or ignore() to suppress this warning in %s on line %d

Warning: Unhandled exception in Future: Timeout occurred after 5 milliseconds; use catch() or ignore() to handle it (created at %s, completed at %s) in %s on line %d
end
