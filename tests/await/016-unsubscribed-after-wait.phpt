--TEST--
await_*: once a wait returns, the triggers it did not need are unsubscribed: completing them later wakes nobody, nothing accumulates
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{await_any_or_fail, await_any_of_or_fail, await_all, await, spawn, delay, suspend, timeout};

// While waiting, the waiter is subscribed to every trigger (and the token).
$s1 = new FutureState();
$s2 = new FutureState();
$waiter = spawn(fn() => await_any_or_fail(['a' => new Future($s1), 'b' => new Future($s2), 'c' => spawn(fn() => delay(30))], timeout(5000)));
suspend();
echo "waiting on: ", implode(', ', $waiter->getAwaitingInfo()), "\n";
echo "subscribers of s1: ", count($s1->getAwaitingInfo()), "\n";
$s2->complete('b wins');
var_dump(await($waiter));
echo "subscribers after: ", count($s1->getAwaitingInfo()), ", ", count($s2->getAwaitingInfo()), "\n";
echo "waiting on after: ", count($waiter->getAwaitingInfo()), "\n";

// A trigger completed after the wait returned does not wake the coroutine in its next wait.
$late = new FutureState();
$next = new FutureState();
$c = spawn(function () use ($late, $next) {
    $first = await_any_or_fail([new Future($late), Future::completed('first')]);
    $second = await(new Future($next));
    return [$first, $second];
});
spawn(function () use ($late, $next) {
    suspend();
    $late->complete('WRONG: the old trigger');
    suspend();
    $next->complete('right');
});
var_dump(await($c));

// ... nor the main flow while it sleeps.
$late = new FutureState();
var_dump(await_any_or_fail([new Future($late), spawn(fn() => 'quick')]));
spawn(function () use ($late) { delay(2); $late->complete('late'); });
$t0 = hrtime(true);
delay(40);
$ms = (hrtime(true) - $t0) / 1e6;
echo "main slept ", $ms >= 39 ? "the whole delay" : "only $ms ms", "\n";

// Nothing accumulates on a trigger that is never completed, however often it is raced.
$forever = new FutureState();
$pending = new Future($forever);
$m0 = memory_get_usage();
for ($i = 0; $i < 2000; $i++) {
    await_any_of_or_fail(1, [$pending, Future::completed($i)]);
    await_any_or_fail([$pending, spawn(fn() => $i)]);
}
echo "subscribers of the pending future: ", count($forever->getAwaitingInfo()), "\n";
$grown = memory_get_usage() - $m0;
echo "memory grown: ", $grown < 64 * 1024 ? "no" : "$grown bytes", "\n";
$forever->ignore();
?>
--EXPECTF--
waiting on: Timeout(5000 ms), FutureState(pending) created at %s:%d, FutureState(pending) created at %s:%d, Coroutine %d spawned at %s:%d (%r(Closure::__invoke|\{closure:\{closure:%s016-unsubscribed-after-wait\.php:8\}:8\})%r)
subscribers of s1: 1
string(6) "b wins"
subscribers after: 0, 0
waiting on after: 0
array(2) {
  [0]=>
  string(5) "first"
  [1]=>
  string(5) "right"
}
string(5) "quick"
main slept the whole delay
subscribers of the pending future: 0
memory grown: no
