--TEST--
Coroutines spawned from register_shutdown_function handlers still run (also when nothing was launched before)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

register_shutdown_function(function () {
    echo "shutdown 1\n";
    spawn(function () {
        delay(10);
        echo "coroutine from shutdown 1\n";
        spawn(function () { delay(5); echo "nested from shutdown coroutine\n"; });
    });
});
register_shutdown_function(function () {
    echo "shutdown 2\n";
    // await in a shutdown function works too.
    var_dump(await(spawn(fn() => "awaited in shutdown 2")));
});
echo "main end (nothing launched)\n";
?>
--EXPECT--
main end (nothing launched)
shutdown 1
shutdown 2
string(21) "awaited in shutdown 2"
coroutine from shutdown 1
nested from shutdown coroutine
