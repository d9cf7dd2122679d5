--TEST--
Pool: acquire($timeout) throws Async\TimeoutException (not a PoolException); a timed-out waiter leaves the queue
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, suspend, delay};

$pool = new Pool(fn() => "only", max: 1);
$r = $pool->acquire();

$t = hrtime(true);
try {
    $pool->acquire(30);
} catch (Throwable $e) {
    $ms = (hrtime(true) - $t) / 1e6;
    echo get_class($e), ": ", $e->getMessage(), "\n";
    var_dump($e instanceof Async\PoolException, $ms >= 29);
}
echo count($pool), " ", $pool->activeCount(), "\n";

// A waiter that timed out is skipped: the next release goes to the one behind it.
$log = [];
$short = spawn(function () use ($pool, &$log) {
    try {
        $pool->acquire(10);
    } catch (Async\TimeoutException $e) {
        $log[] = "short timed out";
    }
});
$long = spawn(function () use ($pool, &$log) {
    $r = $pool->acquire(); // 0 = no limit
    $log[] = "long got $r";
    $pool->release($r);
});
delay(40);
$pool->release($r);
await($short);
await($long);
echo implode("\n", $log), "\n";
echo count($pool), " ", $pool->idleCount(), "\n";

// The waiter timed out but had not run yet when release() came: the resource is not lost.
// (Which of the two runs first depends on when their timers were armed: both orders must work.)
$r = $pool->acquire();
$events = [];
$late = spawn(function () use ($pool, &$events) {
    try {
        $pool->acquire(5);
    } catch (Async\TimeoutException $e) {
        $events[] = "late: timeout";
    }
});
$releaser = spawn(function () use ($pool, $r, &$events) {
    delay(3);
    $pool->release($r); // usually runs before "late", whose timer fired in the same loop pass
    $events[] = "released";
});
suspend();
$t = hrtime(true);
while (hrtime(true) - $t < 20e6) {} // both timers become due while nothing runs the loop
await($late);
await($releaser);
sort($events);
echo implode("\n", $events), "\n";
echo count($pool), " ", $pool->idleCount(), " ", $pool->tryAcquire(), "\n";
$pool->release("only");

try {
    $pool->acquire(-1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Async\TimeoutException: Timeout occurred after 30 milliseconds
bool(false)
bool(true)
1 1
short timed out
long got only
1 1
late: timeout
released
1 1 only
Async\Pool::acquire(): Argument #1 ($timeout) must be greater than or equal to 0
