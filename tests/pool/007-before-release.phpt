--TEST--
Pool: beforeRelease returning false destroys the resource and wakes a waiter to create a fresh one
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, suspend};

$made = 0;
$pool = new Pool(
    factory: function () use (&$made) { echo "make ", $made + 1, "\n"; return ++$made; },
    destructor: function ($r) { echo "destroy $r\n"; },
    beforeRelease: function ($r) {
        if ($r === 13) { throw new LogicException("cannot reset $r"); }
        return $r % 2 === 0; // odd ones are "broken"
    },
    max: 1,
);
$r = $pool->acquire();
$waiter = spawn(function () use ($pool) {
    $r = $pool->acquire();
    echo "waiter got $r\n";
    return $r;
});
suspend();
echo "releasing broken $r\n";
$pool->release($r);
echo "count ", count($pool), " active ", $pool->activeCount(), "\n";
$w = await($waiter);
$pool->release($w);
echo "count ", count($pool), " idle ", $pool->idleCount(), "\n";

// A hook that throws rejects like false (spec §8.8): destroyed, the exception swallowed.
$pool2 = new Pool(fn() => 13, destructor: fn($r) => print("destroy2 $r\n"),
    beforeRelease: function ($r) { throw new LogicException("cannot reset $r"); });
$y = $pool2->acquire();
try {
    $pool2->release($y);
} catch (LogicException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
echo count($pool2), "\n";
?>
--EXPECT--
make 1
releasing broken 1
destroy 1
count 1 active 1
make 2
waiter got 2
count 1 idle 1
destroy2 13
0
destroy 2
