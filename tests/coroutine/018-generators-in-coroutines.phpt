--TEST--
Generators that suspend (delay) inside their body work within coroutines
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

function gen() {
    for ($i = 0; $i < 3; $i++) {
        delay(5);
        yield $i;
    }
    return "r";
}
$cs = [];
foreach (['a', 'b'] as $n) {
    $cs[] = spawn(function () use ($n) {
        $out = [];
        $g = gen();
        foreach ($g as $v) { $out[] = "$n$v"; }
        return implode(",", $out) . "|" . $g->getReturn();
    });
}
foreach ($cs as $c) { var_dump(await($c)); }

// A generator advanced from different coroutines.
$g = (function () { $x = yield 1; delay(5); yield $x * 2; })();
var_dump(await(spawn(fn() => $g->current())));
var_dump(await(spawn(fn() => $g->send(21))));

// A generator suspended inside delay() cannot be resumed by another coroutine meanwhile.
$g2 = (function () { delay(30); yield 1; })();
$a = spawn(fn() => $g2->current());
$b = spawn(function () use ($g2) {
    try { return $g2->current(); } catch (Error $e) { return get_class($e) . ": " . $e->getMessage(); }
});
var_dump(await($a), await($b));

// yield from + a suspended generator frame survives gc_collect_cycles().
function inner() { delay(10); yield 1; yield 2; }
function outer() { yield 0; yield from inner(); yield 3; }
$c = spawn(function () { $r = []; foreach (outer() as $v) { $r[] = $v; } return $r; });
Async\suspend();
gc_collect_cycles();
var_dump(implode(",", await($c)));
?>
--EXPECT--
string(10) "a0,a1,a2|r"
string(10) "b0,b1,b2|r"
int(1)
int(42)
int(1)
string(49) "Error: Cannot resume an already running generator"
string(7) "0,1,2,3"
