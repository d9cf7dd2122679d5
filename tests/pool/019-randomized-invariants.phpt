--TEST--
Pool: randomized acquire/tryAcquire/timeouts/cancellations/failing hooks/healthcheck keep the invariants (never above max, nothing lost)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, delay, suspend};

mt_srand(20261121);
$made = 0;
$destroyed = 0;
$max = 4;
$over = 0;
$pool = new Pool(
    factory: function () use (&$made) {
        if (mt_rand(0, 9) == 0) { delay(1); }
        if (mt_rand(0, 30) == 0) { return false; }
        return ++$made;
    },
    destructor: function ($r) use (&$destroyed) { $destroyed++; },
    healthcheck: fn($r) => mt_rand(0, 5) > 0,
    beforeAcquire: function ($r) {
        if (mt_rand(0, 8) == 0) { suspend(); }
        return mt_rand(0, 10) > 0;
    },
    beforeRelease: function ($r) {
        if (mt_rand(0, 20) == 0) { throw new RuntimeException("reset failed"); }
        return mt_rand(0, 10) > 0;
    },
    min: 1, max: $max, healthcheckInterval: 2,
);

$held = [];
$cs = [];
for ($i = 0; $i < 100; $i++) {
    $cs[] = spawn(function () use ($pool, $max, &$over, &$held) {
        for ($k = 0; $k < 5; $k++) {
            try {
                $r = mt_rand(0, 3) ? $pool->acquire(mt_rand(0, 2) ? 0 : mt_rand(1, 5)) : $pool->tryAcquire();
                if ($r === null) { suspend(); continue; }
                if (count($pool) > $max || isset($held[$r])) { $over++; }
                $held[$r] = true;
                try {
                    if (mt_rand(0, 2) == 0) { delay(mt_rand(0, 2)); } else { suspend(); }
                } finally {
                    unset($held[$r]);
                    try { $pool->release($r); } catch (RuntimeException $e) {}
                }
            } catch (Async\TimeoutException | Async\PoolException $e) {
            } catch (Async\AsyncCancellation $e) {
                return;
            }
        }
    });
}
for ($j = 0; $j < 10; $j++) {
    delay(1);
    $cs[mt_rand(0, 99)]->cancel();
}
foreach ($cs as $c) { await($c); }
echo "over max or handed out twice: $over\n";
echo "active after all returned: ", $pool->activeCount(), "\n";
var_dump(count($pool) <= $max);
$pool->close();
echo "made == destroyed: ", var_export($made === $destroyed, true), "\n";
?>
--EXPECT--
over max or handed out twice: 0
active after all returned: 0
bool(true)
made == destroyed: true
