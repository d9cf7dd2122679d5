--TEST--
suspend(): no-op before launch; FIFO interleaving between coroutines; main takes its turn too
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, get_coroutines};

// Before anything was launched: returns at once, launches nothing.
suspend();
suspend();
var_dump(get_coroutines());

$order = [];
$cs = [];
foreach (['a', 'b', 'c'] as $n) {
    $cs[] = spawn(function () use ($n, &$order) {
        for ($i = 0; $i < 3; $i++) {
            $order[] = "$n$i";
            suspend();
        }
    });
}
for ($i = 0; $i < 2; $i++) {
    $order[] = "main$i";
    suspend();
}
foreach ($cs as $c) { await($c); }
echo implode(" ", $order), "\n";

// suspend() with a single runnable coroutine just continues.
var_dump(await(spawn(function () { suspend(); suspend(); return "alone"; })));

// suspend() inside the main coroutine when nothing else is runnable returns.
suspend();
echo "end\n";
?>
--EXPECT--
array(0) {
}
main0 a0 b0 c0 main1 a1 b1 c1 a2 b2 c2
string(5) "alone"
end
