--TEST--
ABI: a C pool's healthcheck (C function) runs on its hidden timer and replaces dead resources up to min
--EXTENSIONS--
async_abi_test
--FILE--
<?php
use function Async\delay;

$pool = async_abi_test_pool_new(2, 4, 10); // min 2, healthcheck every 10 ms
$busy = async_abi_test_pool_acquire();      // 1: busy, never checked
async_abi_test_pool_kill(1);
async_abi_test_pool_kill(2);                // 2 is idle and dead
delay(60);
$s = async_abi_test_pool_stats();
echo "created {$s['created']} destroyed {$s['destroyed_ids']} checks>0 ", var_export($s['checks'] > 0, true), "\n";
echo "count ", count($pool), " idle ", $pool->idleCount(), "\n";
async_abi_test_pool_release($busy);
async_abi_test_pool_close();
echo async_abi_test_pool_stats()['destroyed_ids'], "\n";
async_abi_test_pool_free();
?>
--EXPECT--
created 3 destroyed 2 checks>0 true
count 2 idle 1
2,3,1
