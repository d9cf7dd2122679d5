--TEST--
ABI: a signal event (new_signal_event) wakes its waiter once, counts as active only while waited on; uncatchable or invalid numbers fail cleanly
--EXTENSIONS--
async_abi_test
--FILE--
<?php
var_dump(async_abi_test_signal_roundtrip(10)); // SIGUSR1, in the main coroutine
var_dump(Async\await(Async\spawn(fn() => async_abi_test_signal_roundtrip(12)))); // SIGUSR2, in a coroutine
try {
    async_abi_test_signal_roundtrip(9);
} catch (Async\AsyncException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
foreach ([0, -1, 65, PHP_INT_MAX] as $bad) {
    try {
        async_abi_test_signal_roundtrip($bad);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
var_dump(async_abi_test_signal_roundtrip(10)); // still works after the failures
?>
--EXPECTF--
bool(true)
bool(true)
Async\AsyncException: Cannot watch signal 9: invalid argument
Signal number must be between 1 and 64, 0 given
Signal number must be between 1 and 64, -1 given
Signal number must be between 1 and 64, 65 given
Signal number must be between 1 and 64, %i given
bool(true)
