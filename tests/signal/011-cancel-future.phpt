--TEST--
signal(): Future::cancel() ends the wait (the script is not held open); cancelling a coroutine that awaits it does not
--EXTENSIONS--
posix
--FILE--
<?php
use Async\{Signal, AsyncCancellation};
use function Async\{signal, spawn, await, delay};

$f = signal(Signal::SIGUSR1);
$f->cancel();
var_dump($f->isCompleted(), $f->isCancelled());
try {
    await($f);
} catch (AsyncCancellation $e) {
    echo $e->getMessage(), "\n";
}

// The awaiting coroutine is cancelled: the wait stays armed (other readers may hold the Future)
// and still resolves when the signal comes.
$g = signal(Signal::SIGUSR2);
$reader = spawn(fn() => await($g));
delay(1);
$reader->cancel();
delay(1);
var_dump($reader->isCancelled(), $g->isCompleted());
posix_kill(getmypid(), SIGUSR2);
var_dump(await($g));
echo "end\n";
?>
--EXPECT--
bool(true)
bool(true)
Future has been cancelled
bool(true)
bool(false)
enum(Async\Signal::SIGUSR2)
end
