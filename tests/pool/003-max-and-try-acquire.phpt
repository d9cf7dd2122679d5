--TEST--
Pool: max enforced; tryAcquire() returns null when exhausted, closed or INACTIVE, never parks
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;

$made = 0;
$pool = new Pool(function () use (&$made) { return ++$made; }, max: 2);
var_dump($pool->tryAcquire(), $pool->tryAcquire(), $pool->tryAcquire());
echo "made $made, count ", count($pool), "\n";

// acquire() at the limit parks; another coroutine frees a slot.
$co = Async\spawn(function () use ($pool) {
    $pool->release(1);
    echo "released\n";
});
$r = $pool->acquire();
echo "got $r (made $made)\n";
Async\await($co);

$pool->release(1);
$pool->deactivate();
var_dump($pool->tryAcquire());
$pool->activate();
var_dump($pool->tryAcquire());
$pool->release(1);
$pool->close();
var_dump($pool->tryAcquire());
echo "made $made\n";
?>
--EXPECT--
int(1)
int(2)
NULL
made 2, count 2
released
got 1 (made 2)
NULL
int(1)
NULL
made 2
