--TEST--
get_coroutines(): empty before launch, then all live coroutines including main
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, current_coroutine, get_coroutines};

var_dump(get_coroutines());
suspend();
var_dump(count(get_coroutines()));

// $a stays alive until cancelled: no timing involved, even under valgrind.
$a = spawn(function () { try { delay(100000); } catch (Async\AsyncCancellation) {} });
$b = spawn(fn() => suspend());
$list = get_coroutines();
var_dump(count($list));
var_dump(in_array($a, $list, true), in_array($b, $list, true), in_array(current_coroutine(), $list, true));
foreach ($list as $co) { var_dump($co instanceof Async\Coroutine); }

await($b);
var_dump(count(get_coroutines()), in_array($b, get_coroutines(), true));
$a->cancel();
await($a);
var_dump(count(get_coroutines()));
var_dump(get_coroutines()[0] === current_coroutine());

// A coroutine cancelled before it started stays listed until the scheduler reaches it.
$x = spawn(fn() => 1);
var_dump(count(get_coroutines()));
$x->cancel();
var_dump(count(get_coroutines()));
try { await($x); } catch (Async\AsyncCancellation $e) {}
var_dump(count(get_coroutines()));

// Fire-and-forget coroutines are listed while alive, without a user handle.
for ($i = 0; $i < 5; $i++) { spawn(fn() => delay(10)); }
var_dump(count(get_coroutines()));
delay(50);
var_dump(count(get_coroutines()));

// From inside a coroutine.
var_dump(await(spawn(fn() => count(get_coroutines()))));
?>
--EXPECT--
array(0) {
}
int(0)
int(3)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(2)
bool(false)
int(1)
bool(true)
int(2)
int(2)
int(1)
int(6)
int(1)
int(2)
