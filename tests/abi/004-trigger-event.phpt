--TEST--
ABI: a trigger event wakes its waiter, counts as active only while waited on
--EXTENSIONS--
async_abi_test
--FILE--
<?php
var_dump(async_abi_test_trigger_roundtrip());
var_dump(Async\await(Async\spawn(fn() => async_abi_test_trigger_roundtrip())));
?>
--EXPECT--
bool(true)
bool(true)
