--TEST--
Memory exhaustion by gradual growth inside a coroutine while another coroutine sleeps
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
// Without ZendMM (valgrind lane) memory_limit is not enforced: the test would eat the machine.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit needs ZendMM');
?>
--INI--
async.debug_deadlock=0
memory_limit=16M
--FILE--
<?php
use function Async\{spawn, delay};

spawn(function () {
    delay(10000);
    echo "sleeper: not reached\n";
});
spawn(function () {
    $a = [];
    for ($i = 0; ; $i++) {
        $a[] = str_repeat("y", 1024);
        if ($i % 1000 === 0) { Async\suspend(); }
    }
});
echo "main end\n";
?>
--EXPECTF--
main end

Fatal error: Allowed memory size of 16777216 bytes exhausted %s in %s on line %d
