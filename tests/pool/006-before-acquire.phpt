--TEST--
Pool: beforeAcquire returning false (or throwing) destroys the resource and tries the next
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;

$made = 0;
$bad = [];
$pool = new Pool(
    factory: function () use (&$made) { return ++$made; },
    destructor: function ($r) { echo "destroy $r\n"; },
    beforeAcquire: function ($r) use (&$bad) {
        echo "check $r\n";
        if ($r === 99) { throw new RuntimeException("hook failed on $r"); }
        return !in_array($r, $bad, true);
    },
    min: 3, max: 3,
);
$bad = [1, 2];
$r = $pool->acquire();      // 1 and 2 rejected and destroyed, 3 taken
echo "got $r; count ", count($pool), " idle ", $pool->idleCount(), "\n";
$r2 = $pool->acquire();     // pool has room again: created fresh, beforeAcquire is for idle ones
echo "got $r2; made $made\n";
$pool->release($r);
$pool->release($r2);

// A hook that returns nothing (null) does not reject.
$quiet = new Pool(fn() => "q", beforeAcquire: function ($r) { }, min: 1);
var_dump($quiet->acquire());

// A hook that throws rejects like false (spec §8.8): the resource is destroyed, the exception
// swallowed, and a fresh one is made (beforeAcquire checks idle ones only).
$pool2 = new Pool(fn() => 99, destructor: fn($r) => print("destroy2 $r\n"),
    beforeAcquire: function ($r) { throw new RuntimeException("hook failed on $r"); }, min: 1);
try {
    $got = $pool2->acquire();
    echo "acquired $got\n";
} catch (RuntimeException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
echo count($pool2), "\n";

// tryAcquire goes through the same hook.
$bad = [3, 4];
var_dump($pool->tryAcquire());
echo "count ", count($pool), " made $made\n";
?>
--EXPECT--
check 1
destroy 1
check 2
destroy 2
check 3
got 3; count 1 idle 0
got 4; made 4
string(1) "q"
destroy2 99
acquired 99
1
check 3
destroy 3
check 4
destroy 4
int(5)
count 1 made 5
