--TEST--
Pool: parked acquirers are served in FIFO order; a woken waiter's resource is reserved for it
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, suspend, delay};

$pool = new Pool(fn() => new ArrayObject(), max: 1);
$r = $pool->acquire();

$log = [];
$cs = [];
foreach (['a', 'b', 'c', 'd', 'e'] as $i => $name) {
    $cs[] = spawn(function () use ($pool, $name, &$log) {
        $res = $pool->acquire();
        $log[] = $name;
        $res[] = $name;
        suspend();
        $pool->release($res);
    });
    if ($i == 1) {
        suspend(); // a and b park before c, d, e are spawned
    }
}
suspend();
echo "parked: ", count($pool), " total, ", $pool->activeCount(), " active\n";

$pool->release($r);
// The resource is reserved for "a": a coroutine that did not wait cannot take it; until "a"
// runs, it still counts as idle (nobody holds it yet).
var_dump($pool->tryAcquire());
var_dump($pool->idleCount(), $pool->activeCount());
foreach ($cs as $c) { await($c); }
echo implode(" ", $log), "\n";
echo implode(",", (array) $pool->acquire()), "\n";

// Waiters keep FIFO order across different release patterns (two resources, many waiters).
$pool2 = new Pool(function () { static $n = 0; return ++$n; }, max: 2);
$x = $pool2->acquire();
$y = $pool2->acquire();
$got = [];
$cs = [];
for ($i = 0; $i < 6; $i++) {
    $cs[] = spawn(function () use ($pool2, $i, &$got) {
        $r = $pool2->acquire();
        $got[] = "$i<-$r";
        delay(1);
        $pool2->release($r);
    });
}
suspend();
$pool2->release($y);
$pool2->release($x);
foreach ($cs as $c) { await($c); }
echo implode(" ", $got), "\n";
echo count($pool2), " ", $pool2->idleCount(), "\n";
?>
--EXPECT--
parked: 1 total, 1 active
NULL
int(1)
int(0)
a b c d e
a,b,c,d,e
0<-2 1<-1 2<-2 3<-1 4<-2 5<-1
2 2
