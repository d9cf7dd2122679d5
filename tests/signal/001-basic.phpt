--TEST--
signal(): resolves with the Signal case when the signal is raised from another coroutine; a signal raised before the await is not lost
--EXTENSIONS--
posix
--FILE--
<?php
use Async\{Signal, Future};
use function Async\{signal, spawn, await, delay};

$f = signal(Signal::SIGUSR1);
var_dump($f instanceof Future, $f->isCompleted());

spawn(function () {
    delay(1);
    echo "raising\n";
    posix_kill(getmypid(), SIGUSR1);
});
$case = await($f);
var_dump($case === Signal::SIGUSR1, $f->isCompleted(), $f->isCancelled());
var_dump(await($f) === Signal::SIGUSR1); // replay

// Raised at once, awaited later: libuv's handler has it, the loop delivers it on the next tick.
$g = signal(Signal::SIGUSR2);
posix_kill(getmypid(), SIGUSR2);
echo "raised before await\n";
var_dump($g->isCompleted());
var_dump(await($g));
echo "done\n";
?>
--EXPECT--
bool(true)
bool(false)
raising
bool(true)
bool(true)
bool(false)
bool(true)
raised before await
bool(false)
enum(Async\Signal::SIGUSR2)
done
