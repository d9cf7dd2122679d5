--TEST--
signal(): independent waits on the same signal are all notified by one delivery; a wait on another signal is not
--EXTENSIONS--
posix
--FILE--
<?php
use Async\Signal;
use function Async\{signal, spawn, await, await_all, delay};

$a = signal(Signal::SIGUSR1);
$b = signal(Signal::SIGUSR1);
$other = signal(Signal::SIGUSR2);

// libuv dispatches one delivery to the handles in an order of its own: sort what was seen.
$seen = [];
$waiters = [];
foreach (['x' => $a, 'y' => $b, 'z' => $a] as $name => $future) {
    $waiters[] = spawn(function () use ($name, $future, &$seen) {
        $case = await($future);
        $seen[] = "$name got {$case->name}";
    });
}
spawn(function () {
    delay(1);
    posix_kill(getmypid(), SIGUSR1); // exactly one delivery
});
foreach ($waiters as $w) {
    await($w);
}
sort($seen);
echo implode("\n", $seen), "\n";
var_dump($a->isCompleted(), $b->isCompleted(), $other->isCompleted());

// A fresh wait after the first ones ended is armed again.
$c = signal(Signal::SIGUSR1);
spawn(fn() => posix_kill(getmypid(), SIGUSR1));
var_dump(await($c) === Signal::SIGUSR1);

$other->cancel();
echo "end\n";
?>
--EXPECT--
x got SIGUSR1
y got SIGUSR1
z got SIGUSR1
bool(true)
bool(true)
bool(false)
bool(true)
end
