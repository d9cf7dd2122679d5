--TEST--
A lookup suspends only the calling coroutine: others run while it is on the thread pool
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

$log = [];
$a = spawn(function () use (&$log) {
    $log[] = 'A lookup';
    $ip = gethostbyname('localhost');
    $log[] = "A got $ip";
    $log[] = 'A reverse';
    $name = gethostbyaddr('127.0.0.1');
    $log[] = 'A got a name: ' . (is_string($name) && $name !== '' ? 'yes' : 'no');
    $log[] = 'A list';
    $list = gethostbynamel('localhost');
    $log[] = 'A got ' . implode(',', $list);
});
$b = spawn(function () use (&$log) {
    for ($i = 0; $i < 3; $i++) {
        $log[] = "B $i";
        Async\suspend();
    }
});
await($a);
await($b);
echo implode("\n", $log), "\n";

// The same calls outside any coroutine block as PHP's own (nothing else could run meanwhile).
var_dump(gethostbyname('localhost'));
?>
--EXPECTF--
A lookup
B 0
%AA got 127.0.0.1
A reverse
%AA got a name: yes
A list
%AA got 127.0.0.1
%Astring(9) "127.0.0.1"
