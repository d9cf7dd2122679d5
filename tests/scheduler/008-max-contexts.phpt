--TEST--
async.max_contexts: spawn() throws AsyncException when that many coroutines are alive
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
async.max_contexts=5
--FILE--
<?php
use function Async\{spawn, await, delay};

$cs = [];
for ($i = 0; $i < 5; $i++) {
    $cs[] = spawn(fn() => delay(10));
}
try {
    spawn(fn() => 1);
    echo "no exception\n";
} catch (Async\AsyncException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
// Main plus the five.
var_dump(count(Async\get_coroutines()));
foreach ($cs as $c) { await($c); }

// Once they finished, spawning works again.
var_dump(await(spawn(fn() => "ok after")));

// Finished-but-held coroutines do not count.
$done = [];
for ($i = 0; $i < 10; $i++) { $done[] = spawn(fn() => $i); await(end($done)); }
var_dump(count($done), await(spawn(fn() => "still ok")));

// A coroutine cancelled before it started keeps its slot until its turn completes it.
$x = [];
for ($i = 0; $i < 5; $i++) { $x[] = spawn(fn() => 1); }
$x[0]->cancel();
try { spawn(fn() => 1); } catch (Async\AsyncException $e) { echo "still full\n"; }
try { await($x[0]); } catch (Async\AsyncCancellation $e) {}
var_dump(await(spawn(fn() => "slot freed")));

// Lowered at run time to one, with one alive: the message counts it in the singular.
foreach ($x as $c) { try { await($c); } catch (Async\AsyncCancellation $e) {} }
ini_set('async.max_contexts', '1');
$one = spawn(fn() => delay(10));
try { spawn(fn() => 1); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }
await($one);
?>
--EXPECT--
Async\AsyncException: Cannot spawn a coroutine: 5 coroutines are alive, the limit is 5 (async.max_contexts)
int(6)
string(8) "ok after"
int(10)
string(8) "still ok"
still full
string(10) "slot freed"
Cannot spawn a coroutine: 1 coroutine is alive, the limit is 1 (async.max_contexts)
