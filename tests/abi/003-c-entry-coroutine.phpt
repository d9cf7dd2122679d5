--TEST--
ABI: a coroutine whose body is C (internal_entry), spawned through ZEND_ASYNC_SPAWN
--EXTENSIONS--
async_abi_test
--FILE--
<?php
$c = async_abi_test_spawn_c();
var_dump($c instanceof Async\Coroutine, $c->isStarted());
var_dump(Async\await($c));
var_dump(Async\await(async_abi_test_spawn_c()));
?>
--EXPECT--
bool(true)
bool(false)
int(100)
int(200)
