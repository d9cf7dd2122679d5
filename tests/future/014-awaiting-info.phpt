--TEST--
Future/FutureState::getAwaitingInfo(): FutureState's lists the coroutines and chain links waiting on it; Future's describes the future's state first, then the same list
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
$state = array_shift($info);
echo preg_replace(['/\d+/', '/\/\S*\//'], ['N', ''], $state), "\n";
sort($info);
/* PHP 8.5 names a closure after where it is declared: the runtime shows that name */
print_r(array_map(fn($i) => preg_replace(['/\{closure:\/\S*\/014-awaiting-info\.php:10\}/', '/\d+/', '/\/\S*\//'],
    ['Closure::__invoke', 'N', ''], $i), $info));
var_dump($info == (function ($x) { sort($x); return $x; })($s->getAwaitingInfo()));
$s->complete(1);
await($waiter); await($m); await($c);
var_dump(count($s->getAwaitingInfo()));
echo preg_replace(['/\d+/', '/\/\S*\//'], ['N', ''], implode(' | ', $f->getAwaitingInfo())), "\n";
$failed = Future::failed(new RuntimeException("bad"))->ignore();
echo preg_replace(['/\d+/', '/\/\S*\//'], ['N', ''], implode(' | ', $failed->getAwaitingInfo())), "\n";
$cancelled = new Future(new FutureState());
$cancelled->cancel();
echo preg_replace(['/\d+/', '/\/\S*\//'], ['N', ''], implode(' | ', $cancelled->getAwaitingInfo())), "\n";
?>
--EXPECT--
array(0) {
}
Future(pending) created at N-awaiting-info.php:N
Array
(
    [0] => Coroutine N spawned at N-awaiting-info.php:N, suspended at N-awaiting-info.php:N (Closure::__invoke)
    [1] => catch()
    [2] => map()
)
bool(true)
int(0)
Future(completed at N-awaiting-info.php:N)
Future(failed at N-awaiting-info.php:N: RuntimeException: bad)
Future(cancelled at N-awaiting-info.php:N)
