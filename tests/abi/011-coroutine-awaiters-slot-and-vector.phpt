--TEST--
ABI: a C extension waiting on a coroutine's event (zend_async_resume_when()) and await() in PHP share it: the first await() is kept in the coroutine's slot, the extension's subscription in the event's vector; all are woken in subscription order with the result or the exception, and a cancelled C waiter leaves nothing behind
--EXTENSIONS--
async_abi_test
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, suspend};

function gated(FutureState $gate, $value) {
    $g = new Future($gate);
    return spawn(function () use ($g, $value) {
        await($g);
        if ($value instanceof Throwable) throw $value;
        return $value;
    });
}
$show = fn (array $pair) => json_encode($pair[0]) . ' ' . ($pair[1] ? get_class($pair[1]) . '(' . $pair[1]->getMessage() . ')' : '-');

// PHP first (the slot), then C (the vector), then PHP again (the vector).
$gate = new FutureState();
$target = gated($gate, 'R');
$log = [];
$w = [];
$w[] = spawn(function () use ($target, &$log) { $log[] = 'php1 ' . await($target); });
$w[] = spawn(function () use ($target, &$log, $show) { $log[] = 'c ' . $show(async_abi_test_wait_awaitable($target)); });
$w[] = spawn(function () use ($target, &$log) { $log[] = 'php2 ' . await($target); });
suspend();
$gate->complete(null);
foreach ($w as $x) await($x);
echo implode(', ', $log), "\n";

// C first: the PHP awaiter goes to the vector behind it; an exception reaches both.
$gate = new FutureState();
$target = gated($gate, new RuntimeException('failed'));
$log = [];
$w = [];
$w[] = spawn(function () use ($target, &$log) { try { async_abi_test_wait_awaitable($target); } catch (RuntimeException $e) { $log[] = 'c ' . $e->getMessage(); } });
$w[] = spawn(function () use ($target, &$log) { try { await($target); } catch (RuntimeException $e) { $log[] = 'php ' . $e->getMessage(); } });
suspend();
$gate->complete(null);
foreach ($w as $x) await($x);
echo implode(', ', $log), "\n";

// The C waiter is cancelled and unsubscribes: the vector is empty again, the next await() takes
// the slot, and the target's result reaches only it.
$gate = new FutureState();
$target = gated($gate, 'late');
$log = [];
$c = spawn(function () use ($target, &$log) {
    try { async_abi_test_wait_awaitable($target); $log[] = 'c: not cancelled'; }
    catch (Async\AsyncCancellation $e) { $log[] = 'c cancelled'; }
});
suspend();
$c->cancel();
await($c);
$p = spawn(function () use ($target, &$log) { $log[] = 'php ' . await($target); });
suspend();
$gate->complete(null);
await($p);
echo implode(', ', $log), "\n";
?>
--EXPECT--
php1 R, c "R" -, php2 R
c failed, php failed
c cancelled, php late
