--TEST--
Future/FutureState::getAwaitingInfo(): the coroutines and chain links waiting on a future
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, suspend};

$s = new FutureState();
$f = new Future($s);
var_dump($s->getAwaitingInfo());
$m = $f->map(fn($v) => $v);
$c = $f->catch(fn($e) => null);
$waiter = spawn(fn() => $f->await());
suspend();
$info = $f->getAwaitingInfo();
sort($info);
print_r(array_map(fn($i) => preg_replace(['/\d+/', '/\/\S*\//'], ['N', ''], $i), $info));
var_dump($info == (function ($x) { sort($x); return $x; })($s->getAwaitingInfo()));
$s->complete(1);
await($waiter); await($m); await($c);
var_dump($f->getAwaitingInfo());
?>
--EXPECT--
array(0) {
}
Array
(
    [0] => Coroutine N spawned at N-awaiting-info.php:N, suspended at N-awaiting-info.php:N (Closure::__invoke)
    [1] => catch()
    [2] => map()
)
bool(true)
array(0) {
}
