--TEST--
timeout() as a token: await() throws OperationCanceledException with previous TimeoutException; the awaited coroutine goes on
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{OperationCanceledException, TimeoutException};
use function Async\{spawn, await, delay, timeout};

$slow = spawn(function () { delay(150); return "slow result"; });
$start = hrtime(true);
try {
    await($slow, timeout(40));
    echo "no timeout\n";
} catch (OperationCanceledException $e) {
    $ms = (hrtime(true) - $start) / 1e6;
    echo get_class($e), ": ", $e->getMessage(), "\n";
    $p = $e->getPrevious();
    echo get_class($p), ": ", $p->getMessage(), "\n";
    // It fired on time: not before its 40 ms, and before the awaited coroutine finished.
    var_dump($p instanceof TimeoutException, $ms >= 35 && !$slow->isCompleted());
}
// The awaited coroutine is not cancelled by the token.
var_dump($slow->isCancelled(), await($slow));

// Fast enough: the result, no exception; a timeout in a coroutine.
var_dump(await(spawn(fn() => await(spawn(function () { delay(5); return "fast"; }), timeout(500)))));

// catch (Cancellation) sees it; catch (Exception) does not.
try {
    try { await(spawn(fn() => delay(100)), timeout(5)); } catch (Exception $e) { echo "wrongly caught as Exception\n"; }
} catch (Cancellation $e) { echo "caught as Cancellation\n"; }
?>
--EXPECT--
Async\OperationCanceledException: Operation has been cancelled
Async\TimeoutException: Timeout occurred after 40 milliseconds
bool(true)
bool(true)
bool(false)
string(11) "slow result"
string(4) "fast"
caught as Cancellation
