--TEST--
Pool: acquire() at top level parks the main flow; parking inside a destructor is refused on PHP 8.2/8.3 and waits for a release from PHP 8.4 (hooks run there too)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
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
$held = $pool->acquire();
echo "main got $held\n";

// PHP 8.2 and 8.3 forbid switching coroutines inside a destructor: parking there is refused.
// From PHP 8.4 the destructor's coroutine parks until the coroutine it spawned releases the resource.
class UsesPool {
    public function __construct(private Pool $pool, private string $held) {}
    public function __destruct() {
        if (PHP_VERSION_ID >= 80400) {
            $pool = $this->pool;
            $held = $this->held;
            spawn(fn() => $pool->release($held));
        }
        try {
            $got = $this->pool->acquire(); // exhausted: has to wait
            echo PHP_VERSION_ID >= 80400 ? "8.4+: acquire() waited for the release: $got" : "8.2-8.3: BAD, acquired $got", "\n";
        } catch (Async\AsyncException $e) {
            echo PHP_VERSION_ID >= 80400 ? "8.4+: BAD, " : "8.2-8.3: ", get_class($e), ": ", $e->getMessage(), "\n";
        }
        var_dump($this->pool->tryAcquire()); // never waits: fine here (exhausted: NULL)
    }
}
$o = new UsesPool($pool, $held);
unset($o);

// A pool whose object is destroyed inside a coroutine: its destructor hooks run there.
spawn(function () {
    $p = new Pool(fn() => "c", destructor: function ($r) { echo "destroyed $r\n"; }, min: 1);
})->finally(fn() => print("coroutine done\n"));
delay(1);
?>
--EXPECTF--
main got only
%r(8\.2-8\.3: Async\\AsyncException: Cannot wait for a pool resource inside a destructor: PHP 8\.[23]\.\S+ forbids switching coroutines there|8\.4\+: acquire\(\) waited for the release: only)%r
NULL
destroyed c
coroutine done
