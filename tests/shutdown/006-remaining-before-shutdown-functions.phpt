--TEST--
Remaining coroutines run when the main script returns, before shutdown functions registered earlier
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, delay};

$state = "pending";
register_shutdown_function(function () {
    global $state;
    echo "shutdown function sees: $state\n";
});
spawn(function () {
    global $state;
    delay(10);
    $state = "coroutine done";
    echo "coroutine done\n";
});
echo "main end\n";
?>
--EXPECT--
main end
coroutine done
shutdown function sees: coroutine done
