--TEST--
Coroutine::finally(): FIFO, receives the coroutine, runs right after completion in a helper coroutine, before the coroutines already queued, its woken waiters included (issue #39 item 2), immediately once finished
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};

$c = spawn(function () { delay(10); echo "body done\n"; return "r"; });
$c->finally(function ($co) use ($c) { echo "h1 same=", var_export($co === $c, true), "\n"; });
$c->finally(function () { echo "h2\n"; });
$c->finally(function () { echo "h3\n"; });
echo "registered\n";
await($c);
echo "awaited\n";
// Already finished: runs at once, before finally() returns.
$c->finally(function ($co) { echo "immediate ", $co->getResult(), "\n"; });
echo "after immediate\n";

// Handlers run for failed coroutines too; the failure is still reported by await().
$f = spawn(function () { throw new LogicException("body failed"); });
$f->finally(function ($co) { echo "handler on failure\n"; });
try { await($f); } catch (LogicException $e) { echo "await: ", $e->getMessage(), "\n"; }

// Handlers run for coroutines cancelled before they started.
$x = spawn(function () { echo "never\n"; });
$x->finally(function () { echo "handler on cancel\n"; });
$x->cancel();
echo "after cancel\n";

// Handlers run for coroutines cancelled while suspended.
$y = spawn(fn() => delay(10000));
$y->finally(function () { echo "handler on suspended cancel\n"; });
suspend();
$y->cancel();
try { await($y); } catch (Async\AsyncCancellation $e) { echo "await: ", $e->getMessage(), "\n"; }

// Handlers may suspend.
$z = spawn(fn() => 1);
$z->finally(function () { delay(5); echo "handler after delay\n"; });
await($z);
delay(20);

// Handlers of a fire-and-forget coroutine run without anyone awaiting.
spawn(fn() => 1)->finally(function () { echo "fire-and-forget handler\n"; });
delay(5);

// Handlers registered from within the coroutine itself.
await(spawn(function () {
    Async\current_coroutine()->finally(function () { echo "self-registered handler\n"; });
    echo "self body\n";
}));
echo "end\n";
?>
--EXPECT--
registered
body done
h1 same=true
h2
h3
awaited
immediate r
after immediate
handler on failure
await: body failed
after cancel
handler on cancel
handler on suspended cancel
await: Coroutine cancelled
handler after delay
fire-and-forget handler
self body
self-registered handler
end
