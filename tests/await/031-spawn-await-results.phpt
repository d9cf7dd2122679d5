--TEST--
await() returns the coroutine's return value, of any type
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$values = [42, "str", 1.5, null, true, [1, [2, 3]], new ArrayObject([7])];
$coroutines = [];
foreach ($values as $v) {
    $coroutines[] = spawn(function () use ($v) { delay(1); return $v; });
}
foreach ($coroutines as $i => $c) {
    $r = await($c);
    var_dump($r == $values[$i] && gettype($r) === gettype($values[$i]));
}
// The object is the same instance, not a copy.
var_dump(await($coroutines[6]) === $values[6]);

// A coroutine without a return statement yields null.
var_dump(await(spawn(function () { delay(1); })));

// Awaiting coroutines in reverse completion order.
$slow = spawn(function () { delay(30); return "slow"; });
$fast = spawn(function () { delay(1); return "fast"; });
var_dump(await($slow), $fast->isCompleted(), await($fast));

// await inside a coroutine on another coroutine.
$outer = spawn(function () {
    $inner = spawn(fn() => "inner");
    return "outer+" . await($inner);
});
var_dump(await($outer));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
NULL
string(4) "slow"
bool(true)
string(4) "fast"
string(11) "outer+inner"
