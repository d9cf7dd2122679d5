--TEST--
spawn() and Scope::spawn() with __call/__callStatic callables and named arguments; one cancelled before it ever runs
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
class M { function __call($n, $a) { return "$n(" . implode(',', $a) . ")"; } static function __callStatic($n, $a) { return "static $n"; } }
$c = Async\spawn([new M, 'dyn'], 1, 2);
$d = Async\spawn('M::stat');
$s = new Async\Scope();
$e = $s->spawn([new M, 'never'], 3);
$s->cancel();
var_dump(Async\await($c), Async\await($d));
try { Async\await($e); } catch (Async\AsyncCancellation $x) { echo "cancelled\n"; }
$f = Async\spawn(fn(int $a, int $b = 0) => $a - $b, b: 5, a: 8);
var_dump(Async\await($f));
?>
--EXPECT--
string(8) "dyn(1,2)"
string(11) "static stat"
cancelled
int(3)
