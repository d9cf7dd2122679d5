--TEST--
ABI: another extension waits on a reactor timer through ZEND_ASYNC_* macros only
--EXTENSIONS--
async_abi_test
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await};
$t = hrtime(true);
$a = spawn(fn() => async_abi_test_c_sleep(100));
$b = spawn(fn() => async_abi_test_c_sleep(100));
var_dump(await($a), await($b));
$ms = (hrtime(true) - $t) / 1e6;
// both waits overlap: far less than the 200 ms they take one after the other
var_dump($ms >= 99 && $ms < 190 * slow_factor());
// outside any coroutine, the main flow waits the same way
var_dump(async_abi_test_c_sleep(10));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
