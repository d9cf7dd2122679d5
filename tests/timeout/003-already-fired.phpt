--TEST--
timeout(): a fired Timeout is completed; used again as a token it throws at once (replay), awaited directly it throws TimeoutException
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{OperationCanceledException, TimeoutException};
use function Async\{spawn, await, delay, timeout};

$t = timeout(10);
$never = spawn(fn() => delay(300));
try { await($never, $t); } catch (OperationCanceledException $e) { echo "first: ", $e->getPrevious()->getMessage(), "\n"; }
var_dump($t->isCompleted(), $t->isCancelled());

// Replay: no suspension, nothing else runs meanwhile.
$ran = false;
$bystander = spawn(function () use (&$ran) { $ran = true; });
$start = hrtime(true);
for ($i = 0; $i < 2; $i++) {
    try { await($never, $t); } catch (OperationCanceledException $e) { echo "again: ", get_class($e->getPrevious()), ": ", $e->getPrevious()->getMessage(), "\n"; }
}
var_dump($ran, (hrtime(true) - $start) / 1e6 < 50);
await($bystander);

// A finished awaitable still replays first.
var_dump(await(Async\Future::completed("done"), $t));

// Awaited itself, a Timeout fails with TimeoutException (after firing, or by waiting for it).
try { await($t); } catch (TimeoutException $e) { echo "direct: ", $e->getMessage(), "\n"; }
try { await(timeout(5)); } catch (TimeoutException $e) { echo "direct wait: ", $e->getMessage(), "\n"; }
$never->cancel();
?>
--EXPECT--
first: Timeout occurred after 10 milliseconds
bool(true)
bool(false)
again: Async\TimeoutException: Timeout occurred after 10 milliseconds
again: Async\TimeoutException: Timeout occurred after 10 milliseconds
bool(false)
bool(true)
string(4) "done"
direct: Timeout occurred after 10 milliseconds
direct wait: Timeout occurred after 5 milliseconds
