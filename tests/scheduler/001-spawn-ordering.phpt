--TEST--
spawn() queues the coroutine; it runs only once the spawner suspends
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend};

echo "start\n";
$c = spawn(function () { echo "c\n"; });
echo "end\n";
suspend();
echo "after suspend\n";

// Several spawns run in spawn order, all after the spawner yields.
$log = [];
$a = spawn(function () use (&$log) { $log[] = "a"; });
$b = spawn(function () use (&$log) { $log[] = "b"; });
$log[] = "main";
await($b);
var_dump($a->isCompleted());
echo implode(",", $log), "\n";
?>
--EXPECT--
start
end
c
after suspend
bool(true)
main,a,b
