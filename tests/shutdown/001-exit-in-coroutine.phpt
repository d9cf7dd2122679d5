--TEST--
exit() inside a coroutine: graceful shutdown of the others, shutdown functions run, process exits
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};

register_shutdown_function(function () { echo "shutdown function\n"; });

$other = spawn(function () {
    try {
        delay(10000);
        echo "other: not reached\n";
    } catch (Async\AsyncCancellation $e) {
        echo "other: ", $e->getMessage(), "\n";
    } finally {
        echo "other: finally\n";
    }
});
spawn(function () {
    echo "before exit\n";
    exit(3);
});
echo "main waits\n";
delay(5000);
echo "main: not reached\n";
?>
--EXPECT--
main waits
before exit
other: Graceful shutdown
other: finally
shutdown function
