--TEST--
ABI: C unit tests of the callbacks vector, ref counting, wakers and registration
--EXTENSIONS--
async_abi_test
--FILE--
<?php
var_dump(async_abi_test_run());
?>
--EXPECTF--
%d passed, 0 failed
bool(true)
