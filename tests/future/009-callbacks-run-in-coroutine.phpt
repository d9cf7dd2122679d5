--TEST--
Future chains: callables run later, each in a coroutine of its own (never inside complete() or a reactor callback), and may suspend
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, delay, current_coroutine};

delay(0); // launches the scheduler: the main flow becomes a coroutine
$main = current_coroutine();
$s = new FutureState();
$f = new Future($s);
$log = [];
$child = $f->map(function ($v) use (&$log, $main) {
    $log[] = "map runs";
    $co = current_coroutine();
    $log[] = $co === $main ? "in main" : "in its own coroutine";
    delay(5);                              // may suspend
    $log[] = "map resumed";
    return await(Future::completed($v + 1)); // and await
});
$log[] = "before complete";
$s->complete(1);
$log[] = "after complete";                // complete() only queued the callable
var_dump(await($child));
print_r($log);

// Completed by a timer-driven coroutine: still not run from the reactor callback.
$s2 = new FutureState();
$ids = [];
$c2 = (new Future($s2))->map(function ($v) use (&$ids) { $ids[] = current_coroutine()->getId(); return $v; });
$c3 = (new Future($s2))->map(function ($v) use (&$ids) { $ids[] = current_coroutine()->getId(); return $v; });
spawn(function () use ($s2) { delay(5); $s2->complete("t"); });
var_dump(await($c2), await($c3), count(array_unique($ids)));

// A chain on a finished future does not run synchronously either.
$ran = false;
$c4 = Future::completed(0)->map(function () use (&$ran) { $ran = true; });
var_dump($ran);
await($c4);
var_dump($ran);
?>
--EXPECT--
int(2)
Array
(
    [0] => before complete
    [1] => after complete
    [2] => map runs
    [3] => in its own coroutine
    [4] => map resumed
)
string(1) "t"
string(1) "t"
int(2)
bool(false)
bool(true)
