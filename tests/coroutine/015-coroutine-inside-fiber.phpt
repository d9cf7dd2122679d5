--TEST--
Coroutines spawned and awaited from inside a Fiber running main's code
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};

$f = new Fiber(function () {
    $c = spawn(function () { delay(5); return "from coroutine"; });
    $r = await($c);
    $x = Fiber::suspend($r);
    $d = spawn(fn() => "second $x");
    return await($d);
});
var_dump($f->start());
var_dump($f->isSuspended());
$f->resume("resumed");
var_dump($f->getReturn());

// A coroutine spawned in a Fiber that is then left suspended still runs (after main suspends).
$g = new Fiber(function () {
    spawn(function () { echo "spawned from fiber ran\n"; });
    Fiber::suspend();
});
$g->start();
delay(5);
$g->resume();
echo "end\n";
?>
--EXPECT--
string(14) "from coroutine"
bool(true)
string(14) "second resumed"
spawned from fiber ran
end
