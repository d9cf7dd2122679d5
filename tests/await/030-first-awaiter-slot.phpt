--TEST--
await(): the first awaiter of a coroutine is kept in the coroutine itself; later ones, a cancelled one, a token's and a failing coroutine behave as before, in subscription order, with nothing left behind
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState, CancellationToken};
use function Async\{spawn, await, suspend, delay};

function gated(FutureState $gate, $value) {
    $g = new Future($gate);
    return spawn(function () use ($g, $value) {
        await($g);
        if ($value instanceof Throwable) throw $value;
        return $value;
    });
}

// 1. Three awaiters: the first in the slot, the others in the event's list; woken in the order
//    they subscribed, each with the result.
$gate = new FutureState();
$target = gated($gate, 'R');
$log = [];
$awaiters = [];
foreach (['a', 'b', 'c'] as $name) {
    $awaiters[] = spawn(function () use ($target, $name, &$log) { $log[] = "$name got " . await($target); });
}
suspend(); // all three subscribe
echo "waiting on target: ", count($awaiters[0]->getAwaitingInfo()), "\n";
$gate->complete(null);
foreach ($awaiters as $a) await($a);
echo implode(', ', $log), "\n";

// 2. A failing coroutine: the slot's awaiter and a listed one both see the exception.
$gate = new FutureState();
$target = gated($gate, new DomainException('boom'));
$log = [];
$a = spawn(function () use ($target, &$log) { try { await($target); } catch (Throwable $e) { $log[] = 'a: ' . describe($e); } });
$b = spawn(function () use ($target, &$log) { try { await($target); } catch (Throwable $e) { $log[] = 'b: ' . describe($e); } });
suspend();
$gate->complete(null);
await($a); await($b);
echo implode(', ', $log), "\n";

// 3. The slot's awaiter is cancelled: it leaves with its cancellation and the slot is free for
//    the next awaiter; the target's result reaches only the live awaiter, and the cancelled
//    coroutine's next wait is not disturbed by the target's finish.
$gate = new FutureState();
$target = gated($gate, 'late');
$next = new FutureState();
$log = [];
$a = spawn(function () use ($target, $next, &$log) {
    try { await($target); $log[] = 'a: not cancelled'; }
    catch (Async\AsyncCancellation $e) { $log[] = 'a: ' . $e->getMessage(); }
    $log[] = 'a next: ' . await(new Future($next));
});
suspend();
$a->cancel(new Async\AsyncCancellation('leave'));
suspend(); // a leaves the slot and waits on $next
$c = spawn(function () use ($target, &$log) { $log[] = 'c got ' . await($target); });
$d = spawn(function () use ($target, &$log) { $log[] = 'd got ' . await($target); });
suspend(); // c takes the slot, d the list
$gate->complete(null);
await($c); await($d);
$next->complete('next value');
await($a);
echo implode(', ', $log), "\n";

// 4. Cancelled by the target itself just before it returns: the target's finish finds the
//    awaiter already woken and leaves it be.
$holder = new stdClass;
$target = spawn(function () use ($holder) {
    suspend();
    $holder->a->cancel(new Async\AsyncCancellation('by target'));
    return 'value';
});
$holder->a = spawn(function () use ($target) {
    try { return 'a got ' . await($target); } catch (Async\AsyncCancellation $e) { return 'a: ' . $e->getMessage(); }
});
echo await($holder->a), "; target: ", await($target), "\n";

// 5. An await with a token goes through the event's list; the token ends it, the slot's awaiter
//    still gets the value.
$gate = new FutureState();
$target = gated($gate, 'T');
$tokenState = new FutureState();
$log = [];
$a = spawn(function () use ($target, &$log) { $log[] = 'a got ' . await($target); });
$b = spawn(function () use ($target, $tokenState, &$log) {
    try { await($target, new Future($tokenState)); } catch (Async\OperationCanceledException $e) { $log[] = 'b: ' . $e->getMessage(); }
});
suspend();
$tokenState->complete(null);
await($b);
$gate->complete(null);
await($a);
echo implode(', ', $log), "\n";

// 6. The main flow awaits through the slot; an awaiter of a finished coroutine replays.
$target = spawn(fn() => 'main got it');
echo await($target), "; again: ", await($target), "\n";

// 7. Many coroutines each awaited once, nested: every one through the slot.
$sum = 0;
$outer = [];
for ($i = 0; $i < 200; $i++) {
    $outer[] = spawn(function () use ($i) { return await(spawn(fn() => $i)) * 2; });
}
foreach ($outer as $o) $sum += await($o);
echo "sum: $sum\n";
?>
--EXPECT--
waiting on target: 1
a got R, b got R, c got R
a: DomainException(boom), b: DomainException(boom)
a: leave, c got late, d got late, a next: next value
a: by target; target: value
b: Operation has been cancelled, a got T
main got it; again: main got it
sum: 39800
