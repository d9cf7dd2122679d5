--TEST--
Pool: acquire() at top level parks the main flow; parking inside a destructor is refused (hooks run there too)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
<?php if (PHP_VERSION_ID >= 80400) die('skip PHP 8.4 allows switching inside destructors'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, delay};

// Before anything was spawned: the scheduler starts on demand, main waits for a release.
$pool = new Pool(fn() => "only", max: 1);
$r = $pool->acquire();
spawn(function () use ($pool, $r) {
    delay(5);
    $pool->release($r);
});
echo "main got ", $pool->acquire(), "\n";

class UsesPool {
    public function __construct(private Pool $pool) {}
    public function __destruct() {
        try {
            $this->pool->acquire(); // exhausted: would have to wait
        } catch (Async\AsyncException $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
        var_dump($this->pool->tryAcquire()); // never waits: fine here
    }
}
$o = new UsesPool($pool);
unset($o);

// A pool whose object is destroyed inside a coroutine: its destructor hooks run there.
spawn(function () {
    $p = new Pool(fn() => "c", destructor: function ($r) { echo "destroyed $r\n"; }, min: 1);
})->finally(fn() => print("coroutine done\n"));
delay(1);
?>
--EXPECTF--
main got only
Async\AsyncException: Cannot wait for a pool resource inside a destructor: PHP %s forbids switching coroutines there
NULL
destroyed c
coroutine done
