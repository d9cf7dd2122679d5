--TEST--
ABI: a pool of C resources made with ZEND_ASYNC_NEW_POOL (C factory/destructor/hooks), used through the C API from several coroutines
--EXTENSIONS--
async_abi_test
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};

// C factory makes counters 1, 2, ...; the object comes from ZEND_ASYNC_NEW_POOL_OBJ.
$pool = async_abi_test_pool_new(1, 2);
var_dump(get_class($pool), count($pool), $pool->idleCount());

$a = async_abi_test_pool_acquire();
$b = async_abi_test_pool_acquire();
var_dump($a, $b, async_abi_test_pool_try_acquire());
echo "count ", count($pool), " active ", $pool->activeCount(), "\n";

// Parked C-API acquirers are served in FIFO order.
$order = [];
$cs = [];
foreach (['x', 'y', 'z'] as $name) {
    $cs[] = spawn(function () use ($name, &$order) {
        $r = async_abi_test_pool_acquire();
        $order[] = "$name:$r";
        suspend();
        async_abi_test_pool_release($r);
    });
}
suspend();
async_abi_test_pool_release($a);
async_abi_test_pool_release($b);
foreach ($cs as $c) { await($c); }
echo implode(" ", $order), "\n";
echo "count ", count($pool), " idle ", $pool->idleCount(), "\n";

// Timeout through the C API.
$a = async_abi_test_pool_acquire();
$b = async_abi_test_pool_acquire();
try {
    async_abi_test_pool_acquire(20);
} catch (Async\TimeoutException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}

// The C before_release rejects odd ids: destroyed by the C destructor, reported to the C strategy,
// and a parked waiter is woken to have a fresh one made.
$w = spawn(fn() => async_abi_test_pool_acquire());
suspend();
[$odd, $even] = $a % 2 ? [$a, $b] : [$b, $a];
async_abi_test_pool_reject_odd(true);
async_abi_test_pool_release($odd); // 1: rejected
var_dump(await($w));               // 3: made in its slot
async_abi_test_pool_reject_odd(false);
async_abi_test_pool_release($even);
async_abi_test_pool_release(3);

// PHP methods work on a C pool as well, through the same object.
$r = $pool->acquire();
$pool->release($r);
var_dump($pool->getState());

// Close through the C API with a waiter parked: PoolException; the busy one dies on release.
$a = async_abi_test_pool_acquire();
$b = async_abi_test_pool_acquire();
$w = spawn(function () {
    try {
        async_abi_test_pool_acquire();
    } catch (Async\PoolException $e) {
        echo "waiter: ", $e->getMessage(), "\n";
    }
});
suspend();
async_abi_test_pool_close();
await($w);
var_dump($pool->isClosed(), async_abi_test_pool_try_acquire());
async_abi_test_pool_release($a);
async_abi_test_pool_release($b);
$s = async_abi_test_pool_stats();
echo "created {$s['created']} destroyed {$s['destroyed']} ({$s['destroyed_ids']}) successes {$s['successes']} failures {$s['failures']}\n";

// The C owner keeps the pool after the PHP object is gone.
$pool = async_abi_test_pool_new(0, 1);
unset($pool);
gc_collect_cycles();
$r = async_abi_test_pool_acquire();
async_abi_test_pool_release($r);
$pool = async_abi_test_pool_new(1, 1); // drops the previous C reference: that pool is freed
async_abi_test_pool_free();            // now only the object holds this one
$r = $pool->acquire();
var_dump(count($pool), $r);
$pool->release($r);
unset($pool);                          // the last owner: idle C resources destroyed without a close()
echo async_abi_test_pool_stats()['destroyed_ids'], "\n";
?>
--EXPECT--
string(10) "Async\Pool"
int(1)
int(1)
int(1)
int(2)
NULL
count 2 active 2
x:1 y:2 z:1
count 2 idle 2
Async\TimeoutException: Timeout occurred after 20 milliseconds
int(3)
enum(Async\CircuitBreakerState::ACTIVE)
waiter: Pool is closed
bool(true)
NULL
created 3 destroyed 3 (1,3,2) successes 10 failures 1
int(1)
int(1)
1
