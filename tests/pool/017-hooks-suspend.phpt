--TEST--
Pool: hooks and the factory may suspend; what they work on counts as active, so max holds under concurrency
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, delay, suspend};

$made = 0;
$peak = 0;
$pool = null;
$pool = new Pool(
    factory: function () use (&$made, &$pool, &$peak) {
        delay(5); // a slow connect
        $peak = max($peak, count($pool));
        return ++$made;
    },
    beforeAcquire: function ($r) { delay(1); return true; },
    beforeRelease: function ($r) { delay(1); return true; },
    max: 3,
);

$cs = [];
$done = 0;
for ($i = 0; $i < 10; $i++) {
    $cs[] = spawn(function () use ($pool, &$done) {
        $r = $pool->acquire();
        delay(2);
        $pool->release($r);
        $done++;
    });
}
suspend();
echo "while creating: count ", count($pool), " active ", $pool->activeCount(), "\n";
foreach ($cs as $c) { await($c); }
echo "done $done, made $made, peak $peak, count ", count($pool), " idle ", $pool->idleCount(), "\n";

// A slow healthcheck: the resource under check is active, not idle, and not handed out.
$checking = false;
$p2 = new Pool(fn() => "h", healthcheck: function ($r) use (&$checking) { $checking = true; delay(30); return true; },
    min: 1, max: 1, healthcheckInterval: 5);
while (!$checking) { delay(1); } // the check has started and is sleeping
echo "during check: idle ", $p2->idleCount(), " active ", $p2->activeCount(), " try ", var_export($p2->tryAcquire(), true), "\n";
echo "acquire waits for the check: ", $p2->acquire(), "\n";
$pool = null; // the factory holds the pool by reference: break the cycle
?>
--EXPECT--
while creating: count 3 active 3
done 10, made 3, peak 3, count 3 idle 3
during check: idle 0 active 1 try NULL
acquire waits for the check: h
