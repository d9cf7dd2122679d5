--TEST--
A worker keeps the VM stack's first page of its last coroutine for its next one: reused after deep recursion grew more pages, after async.vm_stack_size changed (the old page is dropped), after an exception and after a cancellation; each coroutine starts with a clean stack
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.vm_stack_size=1024
fiber.stack_size=16M
--FILE--
<?php
use function Async\{spawn, await, suspend};

function depth(int $n): int { return $n === 0 ? 0 : 1 + depth($n - 1); }
function locals(int $seed): string {
    // Many compiled variables: a frame larger than a 1 KiB page's room, in a fresh coroutine.
    $a = $seed; $b = $a + 1; $c = $b + 1; $d = $c + 1; $e = $d + 1; $f = $e + 1; $g = $f + 1;
    $h = $g + 1; $i = $h + 1; $j = $i + 1; $k = $j + 1; $l = $k + 1; $m = $l + 1; $n = $m + 1;
    $arr = array_fill(0, 40, $seed);
    return "$a-$n-" . array_sum($arr);
}

$log = [];
for ($round = 0; $round < 3; $round++) {
    $log[] = await(spawn('depth', 5000));          // grows pages, then unwinds to the first
    $log[] = await(spawn('locals', $round));
    $log[] = await(spawn(fn() => 'small'));
}
echo implode(' ', $log), "\n";

ini_set('async.vm_stack_size', '8192');
echo await(spawn('depth', 3000)), ' ', await(spawn('locals', 7)), "\n";
ini_set('async.vm_stack_size', '2048');
echo await(spawn('depth', 100)), "\n";

// An exception and a cancellation leave the page as clean as a return.
try { await(spawn(function () { depth(200); throw new LogicException('thrown deep'); })); }
catch (LogicException $e) { echo $e->getMessage(), "\n"; }
$c = spawn(function () { suspend(); return 'not reached'; });
suspend();
$c->cancel();
try { await($c); } catch (Async\AsyncCancellation $e) { echo "cancelled\n"; }

// Many at once: each has its own stack while suspended, then they go back to the pool.
$cs = [];
for ($i = 0; $i < 300; $i++) { $cs[] = spawn(function (int $i) { suspend(); return depth($i % 50); }, $i); }
$sum = 0;
foreach ($cs as $c) { $sum += await($c); }
echo "sum $sum\n";
echo await(spawn('locals', 1)), "\n";
?>
--EXPECT--
5000 0-13-0 small 5000 1-14-40 small 5000 2-15-80 small
3000 7-20-280
100
thrown deep
cancelled
sum 7350
1-14-40
