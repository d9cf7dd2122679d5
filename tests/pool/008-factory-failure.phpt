--TEST--
Pool: factory false gives PoolException "Failed to create pool resource", its exception propagates, the slot is freed for a waiter
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, suspend};

$mode = 'ok';
$n = 0;
$pool = new Pool(function () use (&$mode, &$n) {
    if ($mode === 'false') { return false; }
    if ($mode === 'throw') { throw new DomainException("backend down"); }
    return ++$n;
}, max: 1);

$mode = 'false';
try { $pool->acquire(); } catch (Async\PoolException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
$mode = 'throw';
try { $pool->acquire(); } catch (DomainException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $pool->tryAcquire(); } catch (DomainException $e) { echo "tryAcquire: ", $e->getMessage(), "\n"; }
echo "count ", count($pool), "\n"; // no slot leaked

// A creation that fails frees its slot for a parked waiter, which then creates its own.
$slow = new Pool(function () use (&$mode, &$n) {
    Async\delay(5); // the factory may suspend; its slot counts as active meanwhile
    if ($mode === 'throw') { $mode = 'ok'; throw new DomainException("first creation failed"); }
    return ++$n;
}, max: 1);
$mode = 'throw';
$a = spawn(function () use ($slow) {
    try { $slow->acquire(); } catch (DomainException $e) { echo "a: ", $e->getMessage(), "\n"; }
});
$b = spawn(function () use ($slow) {
    echo "b: count ", count($slow), ", parks\n";
    $r = $slow->acquire();
    echo "b got $r\n";
});
await($a);
await($b);
echo "count ", count($slow), " active ", $slow->activeCount(), "\n";

// min pre-creation failing makes the constructor throw, and what was made is destroyed.
$k = 0;
try {
    new Pool(function () use (&$k) {
        if (++$k === 3) { throw new DomainException("third failed"); }
        return $k;
    }, destructor: fn($r) => print("destroyed $r\n"), min: 3);
} catch (DomainException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECT--
Async\PoolException: Failed to create pool resource
DomainException: backend down
tryAcquire: backend down
count 0
b: count 1, parks
a: first creation failed
b got 1
count 1 active 1
destroyed 1
destroyed 2
DomainException: third failed
