--TEST--
E_USER_ERROR inside a coroutine while main awaits it and another coroutine has a pending timer: clean fatal exit
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

register_shutdown_function(function () { echo "shutdown function\n"; });
$sleeper = spawn(fn() => delay(10000));
$c = spawn(function () {
    delay(1);
    trigger_error("user fatal", E_USER_ERROR);
    echo "not reached\n";
});
await($c);
echo "main: not reached\n";
?>
--EXPECTF--
Fatal error: user fatal in %s on line %d
shutdown function
