--TEST--
await() on a finished coroutine replays the result or the same exception, every time
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend};

$c = spawn(fn() => ["v" => 1]);
var_dump(await($c) === await($c));
var_dump(await($c));

// Replay does not suspend: a queued coroutine does not get to run during it.
$flag = false;
$other = spawn(function () use (&$flag) { $flag = true; });
await($c);
var_dump($flag);
await($other);
var_dump($flag);

$e = spawn(function () { throw new RuntimeException("boom"); });
$seen = [];
for ($i = 0; $i < 3; $i++) {
    try {
        await($e);
        echo "no exception\n";
    } catch (RuntimeException $ex) {
        $seen[] = $ex;
        echo "caught: ", $ex->getMessage(), "\n";
    }
}
var_dump($seen[0] === $seen[1], $seen[1] === $seen[2], $seen[0] === $e->getException());

// Awaiting from another coroutine after completion also replays.
var_dump(await(spawn(function () use ($e, $c) {
    try { await($e); } catch (RuntimeException $ex) { return "inner caught " . $ex->getMessage() . " " . await($c)["v"]; }
})));

// Replay of a cancelled coroutine.
$x = spawn(fn() => 1);
$x->cancel();
for ($i = 0; $i < 2; $i++) {
    try { await($x); } catch (Async\AsyncCancellation $ex) { echo get_class($ex), ": ", $ex->getMessage(), "\n"; }
}
?>
--EXPECT--
bool(true)
array(1) {
  ["v"]=>
  int(1)
}
bool(false)
bool(true)
caught: boom
caught: boom
caught: boom
bool(true)
bool(true)
bool(true)
string(19) "inner caught boom 1"
Async\AsyncCancellation: Coroutine cancelled
Async\AsyncCancellation: Coroutine cancelled
