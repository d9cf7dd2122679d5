--TEST--
An exception in a fire-and-forget coroutine after the main script: "Fatal error: Uncaught Exception: boom"
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, delay};

spawn(function () {
    try {
        delay(10000);
    } catch (Async\AsyncCancellation $e) {
        echo "sibling: ", $e->getMessage(), "\n";
    }
});
spawn(function () {
    delay(5);
    throw new Exception("boom");
});
echo "main end\n";
?>
--EXPECTF--
main end
sibling: Graceful shutdown

Fatal error: Uncaught Exception: boom in %s:%d
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in %s on line %d
