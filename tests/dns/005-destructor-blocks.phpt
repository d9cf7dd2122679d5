--TEST--
In a destructor (no switching on PHP 8.2) the lookups block as PHP's own and still answer
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

class Resolver {
    public function __destruct() {
        echo gethostbyname('localhost'), ' ', implode(',', gethostbynamel('localhost')), ' ',
            gethostbyaddr('127.0.0.1') === gethostbyaddr('127.0.0.1') ? 'same' : 'different', "\n";
    }
}
await(spawn(function () {
    $r = new Resolver();
    unset($r);
    echo "after\n";
}));
?>
--EXPECT--
127.0.0.1 127.0.0.1 same
after
