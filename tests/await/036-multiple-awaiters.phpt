--TEST--
Several coroutines awaiting the same coroutine all receive its result or its exception
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$target = spawn(function () { delay(20); return new ArrayObject(["shared"]); });
$waiters = [];
for ($i = 0; $i < 5; $i++) {
    $waiters[] = spawn(function () use ($target, $i) { return [$i, await($target)]; });
}
$main = await($target);
foreach ($waiters as $w) {
    [$i, $r] = await($w);
    echo "$i ", var_export($r === $main, true), "\n";
}

$failing = spawn(function () { delay(10); throw new LogicException("shared failure"); });
$waiters = [];
for ($i = 0; $i < 3; $i++) {
    $waiters[] = spawn(function () use ($failing) {
        try { await($failing); } catch (LogicException $e) { return $e; }
    });
}
$es = array_map(fn($w) => await($w), $waiters);
var_dump($es[0] === $es[1], $es[1] === $es[2], $es[0]->getMessage());
?>
--EXPECT--
0 true
1 true
2 true
3 true
4 true
bool(true)
bool(true)
string(14) "shared failure"
