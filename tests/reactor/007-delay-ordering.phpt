--TEST--
delay(): timers complete in duration order; delay(0) is a yield
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay, suspend};

$log = [];
$cs = [];
foreach ([60, 20, 40, 0, 1] as $ms) {
    $cs[] = spawn(function () use ($ms, &$log) { delay($ms); $log[] = $ms; });
}
foreach ($cs as $c) { await($c); }
echo implode(",", $log), "\n";

// delay(0) lets the other queued coroutines run.
$log = [];
$a = spawn(function () use (&$log) { $log[] = "a1"; delay(0); $log[] = "a2"; });
$b = spawn(function () use (&$log) { $log[] = "b1"; delay(0); $log[] = "b2"; });
await($a);
await($b);
echo implode(",", $log), "\n";

// delay() really waits.
$t = hrtime(true);
delay(50);
var_dump((hrtime(true) - $t) / 1e6 >= 49);
?>
--EXPECT--
0,1,20,40,60
a1,b1,a2,b2
bool(true)
