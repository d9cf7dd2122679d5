--TEST--
async.schedule_seed perturbs the run order but every result stays correct
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
async.schedule_seed=12345
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};

// Producer/consumer through shared state with suspend(): order varies, totals must not.
$counter = 0;
$log = [];
$cs = [];
for ($i = 0; $i < 20; $i++) {
    $cs[] = spawn(function () use ($i, &$counter, &$log) {
        for ($j = 0; $j < 10; $j++) {
            $counter++;
            suspend();
        }
        $log[] = $i;
        return $i * $i;
    });
}
$sum = 0;
foreach ($cs as $c) { $sum += await($c); }
var_dump($counter, $sum, count($log));
sort($log);
var_dump($log === range(0, 19));

// Await chains and timers.
function chain(int $n) { return $n === 0 ? 0 : $n + await(spawn('chain', $n - 1)); }
var_dump(await(spawn('chain', 50)));
$t = [];
for ($i = 0; $i < 10; $i++) { $t[] = spawn(function () use ($i) { delay($i); return $i; }); }
$r = array_map(fn($c) => await($c), $t);
var_dump($r === range(0, 9));

// Per-coroutine order is preserved (each coroutine's own steps are sequential).
$steps = [];
$cs = [];
foreach (['x', 'y', 'z'] as $n) {
    $cs[] = spawn(function () use ($n, &$steps) { for ($i = 0; $i < 5; $i++) { $steps[$n][] = $i; suspend(); } });
}
foreach ($cs as $c) { await($c); }
ksort($steps);
echo json_encode($steps), "\n";

// The order does differ from plain FIFO for this seed (the knob is effective).
$order = [];
$cs = [];
foreach (range(1, 8) as $n) {
    $cs[] = spawn(function () use ($n, &$order) { $order[] = $n; });
}
foreach ($cs as $c) { await($c); }
var_dump($order !== range(1, 8), count($order));
?>
--EXPECT--
int(200)
int(2470)
int(20)
bool(true)
int(1275)
bool(true)
{"x":[0,1,2,3,4],"y":[0,1,2,3,4],"z":[0,1,2,3,4]}
bool(true)
int(8)
