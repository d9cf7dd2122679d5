--TEST--
Pool: a resource destroyed below min (rejected on release, failed its check) is replaced by a coroutine of the pool's own when nobody waits; a failing factory is not retried in a loop, the next destruction tries again
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, suspend};

$made = 0;
$fail = false;
$pool = new Pool(
    factory: function () use (&$made, &$fail) {
        if ($fail) {
            throw new RuntimeException('down');
        }
        return ++$made;
    },
    beforeRelease: fn($r) => $r % 2 === 0, // odd resources come back broken
    min: 2, max: 4,
);
echo "start: ", count($pool), " made $made\n";

await(spawn(function () use ($pool) {
    $r = $pool->acquire();       // 1
    $pool->release($r);          // rejected: destroyed, the pool is at 1 < min
    echo "after a rejection: ", count($pool), "\n";
}));
// the refill coroutine, queued by the destruction, ran before main's turn
echo "after its refill: ", count($pool), " idle ", $pool->idleCount(), " made $made\n";

// A factory that fails: one attempt, no coroutine spinning on it.
$fail = true;
$ticks = 0;
await(spawn(function () use ($pool, &$ticks) {
    $r = $pool->acquire();       // 2 (even: comes back fine)
    $pool->release($r);
    $r = $pool->acquire();       // 3 (odd: destroyed)
    $pool->release($r);
}));
for ($i = 0; $i < 5; $i++) {
    suspend();
}
echo "factory down: ", count($pool), " made $made\n";
$fail = false;
// The next destruction tries again.
await(spawn(function () use ($pool) {
    $a = $pool->acquire();       // the idle one (2)
    $b = $pool->acquire();       // a new one (4): even, kept
    $c = $pool->acquire();       // a new one (5): odd, destroyed on release
    $pool->release($a);
    $pool->release($b);
    $pool->release($c);
}));
suspend();
echo "back up: ", count($pool), " made $made\n";
?>
--EXPECT--
start: 2 made 2
after a rejection: 1
after its refill: 2 idle 2 made 3
factory down: 1 made 3
back up: 2 made 5
