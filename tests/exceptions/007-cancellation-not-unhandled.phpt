--TEST--
A coroutine that ends with a cancellation is never treated as an unhandled error
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, current_coroutine};

// Fire-and-forget coroutine cancelled while suspended.
$c = spawn(fn() => delay(10000));
suspend();
$c->cancel();
unset($c);
delay(10);
echo "after cancel of dropped handle\n";

// A coroutine throwing AsyncCancellation itself ends quietly.
spawn(function () { throw new Async\AsyncCancellation("self thrown"); });
delay(10);
echo "after self-thrown cancellation\n";

// The same, after the main script.
spawn(function () { delay(5); throw new Async\AsyncCancellation("after main"); });
spawn(function () { delay(20); echo "later coroutine still ran\n"; });
echo "main end\n";
?>
--EXPECT--
after cancel of dropped handle
after self-thrown cancellation
main end
later coroutine still ran
