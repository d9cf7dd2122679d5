--TEST--
Pool: close() wakes every waiter with PoolException, destroys idle resources at once and busy ones on release
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, suspend};

$n = 0;
$pool = new Pool(function () use (&$n) { return ++$n; }, destructor: function ($r) { echo "destroy $r\n"; },
    min: 2, max: 3);
$busy = [$pool->acquire(), $pool->acquire(), $pool->acquire()]; // 1, 2 pre-created, 3 made

$waiters = [];
foreach (['w1', 'w2', 'w3'] as $name) {
    $waiters[] = spawn(function () use ($pool, $name) {
        try {
            $r = $pool->acquire();
            echo "$name got $r\n"; // kept: w1 never gives it back
        } catch (Async\PoolException $e) {
            echo "$name: ", get_class($e), ": ", $e->getMessage(), "\n";
            return $e;
        }
    });
}
suspend();
$pool->release($busy[2]); // reserved for w1 (idle until it runs), which re-checks when it runs: closed by then (spec §8.8)
echo "before close: count ", count($pool), " idle ", $pool->idleCount(), "\n";
$pool->close();
echo "closed: ", var_export($pool->isClosed(), true), ", count ", count($pool), "\n";
$errors = [];
foreach ($waiters as $w) { $errors[] = await($w); }
var_dump($errors[1] !== $errors[2]); // each waiter gets its own exception

echo "count ", count($pool), "\n";
$pool->release($busy[0]); // busy ones are destroyed when they come back
$pool->release($busy[1]);
echo "count ", count($pool), "\n";

$pool->close(); // idempotent
try {
    $pool->acquire();
} catch (Async\PoolException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump($pool->tryAcquire(), $pool->isClosed());

// Idle resources are destroyed by close(), oldest first.
$k = 0;
$p2 = new Pool(function () use (&$k) { return ++$k; }, destructor: fn($r) => print("p2 destroy $r\n"), min: 3);
$p2->close();
echo "p2 count ", count($p2), "\n";

// Dropping a pool object closes it: its idle resources are destroyed.
$p3 = new Pool(fn() => "x", destructor: fn($r) => print("p3 destroy $r\n"), min: 2);
unset($p3);
echo "end\n";
?>
--EXPECT--
before close: count 3 idle 1
closed: true, count 3
destroy 3
w1: Async\PoolException: Pool is closed
w2: Async\PoolException: Pool is closed
w3: Async\PoolException: Pool is closed
bool(true)
count 2
destroy 1
destroy 2
count 0
Async\PoolException: Pool is closed
NULL
bool(true)
p2 destroy 1
p2 destroy 2
p2 destroy 3
p2 count 0
p3 destroy x
p3 destroy x
end
