--TEST--
A fatal error (memory_limit) in a coroutine awaited by main does not produce a deadlock report afterwards
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
// Without ZendMM (valgrind lane) memory_limit is not enforced: the test would eat the machine.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit needs ZendMM');
?>
--INI--
async.debug_deadlock=1
memory_limit=32M
--FILE--
<?php
use function Async\{spawn, await, delay};

$sleeper = spawn(fn() => delay(10000));
$c = spawn(function () {
    delay(1);
    $s = str_repeat("x", 100 * 1024 * 1024);
});
await($c);
echo "main: not reached\n";
?>
--EXPECTF--
Fatal error: Allowed memory size of 33554432 bytes exhausted %s in %s on line %d
