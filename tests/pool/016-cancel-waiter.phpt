--TEST--
Pool: a cancelled waiter leaves the queue; one cancelled after being handed a resource passes it on
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, suspend};

$pool = new Pool(fn() => "R", max: 1);
$r = $pool->acquire();

$make = function (string $name) use ($pool) {
    return spawn(function () use ($pool, $name) {
        try {
            $x = $pool->acquire();
            echo "$name got $x\n";
            $pool->release($x);
        } catch (Async\AsyncCancellation $e) {
            echo "$name cancelled: ", $e->getMessage(), "\n";
        }
    });
};
$a = $make("a");
$b = $make("b");
$c = $make("c");
suspend();

// a is cancelled while parked: it leaves the queue.
$a->cancel();
// b is handed the resource, then cancelled before it runs: the resource goes on to c.
$pool->release($r);
$b->cancel();
await($a);
await($b);
await($c);
echo "count ", count($pool), " idle ", $pool->idleCount(), " active ", $pool->activeCount(), "\n";

// A waiter woken with a free slot (a broken resource) and cancelled before it runs passes the slot on.
$n = 0;
$p2 = new Pool(function () use (&$n) { return ++$n; }, beforeRelease: fn($r) => $r !== 1, max: 1);
$one = $p2->acquire();
$w1 = spawn(function () use ($p2) {
    try { $p2->acquire(); } catch (Async\AsyncCancellation $e) { echo "w1 cancelled\n"; }
});
$w2 = spawn(function () use ($p2) { $x = $p2->acquire(); echo "w2 got $x\n"; $p2->release($x); });
suspend();
$p2->release($one); // broken: destroyed, w1 gets the slot
$w1->cancel();
await($w1);
await($w2);
echo "count ", count($p2), " idle ", $p2->idleCount(), "\n";
?>
--EXPECT--
a cancelled: Coroutine cancelled
b cancelled: Coroutine cancelled
c got R
count 1 idle 1 active 0
w1 cancelled
w2 got 2
count 1 idle 1
