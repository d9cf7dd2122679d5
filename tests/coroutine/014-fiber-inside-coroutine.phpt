--TEST--
A Fiber inside a coroutine: start/suspend/resume/return work, interleaved with coroutine suspension
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};

$c = spawn(function () {
    $f = new Fiber(function ($x) {
        $y = Fiber::suspend($x * 2);
        $z = Fiber::suspend($y + 1);
        return $z * 10;
    });
    $a = $f->start(5);
    delay(5);                   // the coroutine suspends while the Fiber is suspended
    $b = $f->resume(10);
    suspend();
    $f->resume(3);
    return [$a, $b, $f->getReturn(), $f->isTerminated()];
});
$other = spawn(function () { echo "other coroutine ran\n"; });
var_dump(await($c));

// Exceptions thrown in the Fiber surface in the coroutine.
$d = spawn(function () {
    $f = new Fiber(function () { Fiber::suspend(); throw new LogicException("from fiber"); });
    $f->start();
    try {
        $f->resume();
    } catch (LogicException $e) {
        return "caught " . $e->getMessage();
    }
});
var_dump(await($d));

// Fiber::throw() and nested fibers.
$e = spawn(function () {
    $outer = new Fiber(function () {
        $inner = new Fiber(function () { return Fiber::suspend("inner-suspended"); });
        $v = $inner->start();
        $w = Fiber::suspend($v);
        $inner->resume($w);
        return $inner->getReturn();
    });
    $v = $outer->start();
    $outer->resume("to-inner");
    $g = new Fiber(function () { try { Fiber::suspend(); } catch (Exception $ex) { return "thrown: " . $ex->getMessage(); } });
    $g->start();
    $g->throw(new Exception("x"));
    return [$v, $outer->getReturn(), $g->getReturn()];
});
var_dump(await($e));

// Fiber::getCurrent() is null in the coroutine body itself.
var_dump(await(spawn(fn() => Fiber::getCurrent())));
?>
--EXPECT--
other coroutine ran
array(4) {
  [0]=>
  int(10)
  [1]=>
  int(11)
  [2]=>
  int(30)
  [3]=>
  bool(true)
}
string(17) "caught from fiber"
array(3) {
  [0]=>
  string(15) "inner-suspended"
  [1]=>
  string(8) "to-inner"
  [2]=>
  string(9) "thrown: x"
}
NULL
