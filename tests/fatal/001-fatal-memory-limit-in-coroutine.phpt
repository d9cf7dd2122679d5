--TEST--
A real fatal error (memory_limit) inside a coroutine ends the script with "Allowed memory size"
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
// Without ZendMM (valgrind lane) memory_limit is not enforced: the test would eat the machine.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit needs ZendMM');
?>
--INI--
async.debug_deadlock=0
memory_limit=32M
--FILE--
<?php
use function Async\{spawn, delay};

register_shutdown_function(function () { echo "shutdown function\n"; });
spawn(function () {
    delay(1);
    $s = str_repeat("x", 200 * 1024 * 1024);
    echo "not reached\n";
});
echo "main waits\n";
delay(1000);
echo "main: not reached\n";
?>
--EXPECTF--
main waits

Fatal error: Allowed memory size of 33554432 bytes exhausted %s in %s on line %d
shutdown function
