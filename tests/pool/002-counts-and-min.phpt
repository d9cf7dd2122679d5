--TEST--
Pool: min pre-created, count()/idleCount()/activeCount() through acquire and release, oldest idle first
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;

$made = 0;
$pool = new Pool(function () use (&$made) { return "r" . ++$made; }, min: 3, max: 5);
function counts(Pool $p): string {
    return sprintf("count=%d idle=%d active=%d", count($p), $p->idleCount(), $p->activeCount());
}
echo "made $made: ", counts($pool), "\n";

$a = $pool->acquire();
$b = $pool->acquire();
echo "$a $b: ", counts($pool), "\n";
$c = $pool->acquire();
$d = $pool->acquire(); // created: no idle left, below max
echo "$c $d made $made: ", counts($pool), "\n";

$pool->release($b);
$pool->release($a);
echo counts($pool), "\n";
// Idle resources come back oldest first (a ring buffer: released b before a).
echo $pool->acquire(), " ", $pool->acquire(), "\n";
echo counts($pool), "\n";
var_dump($pool->count() === count($pool), $pool->isClosed());

// The ring grows past its initial capacity of 8 and keeps order.
$big = new Pool(function () { static $i = 0; return ++$i; }, max: 40);
$held = [];
for ($i = 0; $i < 20; $i++) { $held[] = $big->acquire(); }
foreach ($held as $r) { $big->release($r); }
$order = [];
for ($i = 0; $i < 20; $i++) { $order[] = $big->acquire(); }
echo implode(",", $order), "\n";
echo counts($big), "\n";
?>
--EXPECT--
made 3: count=3 idle=3 active=0
r1 r2: count=3 idle=1 active=2
r3 r4 made 4: count=4 idle=0 active=4
count=4 idle=2 active=2
r2 r1
count=4 idle=0 active=4
bool(true)
bool(false)
1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20
count=20 idle=0 active=20
