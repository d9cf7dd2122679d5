--TEST--
exit() inside a coroutine after the main script ended: remaining output, then shutdown functions
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, delay};

$long = spawn(function () {
    try {
        delay(10000);
    } finally {
        echo "long: unwound\n";
    }
});
spawn(function () {
    delay(10);
    echo "exiting with 5\n";
    exit(5);
});
register_shutdown_function(function () {
    echo "shutdown function, long completed: ", var_export($GLOBALS['long']->isCompleted(), true), "\n";
});
echo "main end\n";
?>
--EXPECTF--
main end
exiting with 5
long: unwound
shutdown function, long completed: true
