--TEST--
Scope: awaitCompletion — waits for active coroutines, token required and honoured, guards and messages
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay, spawn, timeout};

$s = new Scope();
$log = [];
$s->spawn(function () use (&$log) { delay(20); $log[] = "a"; });
$s->spawn(function () use (&$log) { delay(10); $log[] = "b"; });
$inner = Scope::inherit($s);
$inner->spawn(function () use (&$log) { delay(30); $log[] = "inner"; });
$s->awaitCompletion(timeout(2000));
echo implode(",", $log), "\n";
var_dump($s->isFinished());
// Already finished: returns at once.
$s->awaitCompletion(timeout(1));

// The token fires first: OperationCanceledException with the TimeoutException as previous; the
// scope itself is not cancelled.
$slow = new Scope();
$sc = $slow->spawn(function () { delay(200); return "still running"; });
try { $slow->awaitCompletion(timeout(5)); } catch (Async\OperationCanceledException $e) {
    echo get_class($e), ": ", $e->getMessage(), " / ", get_class($e->getPrevious()), ": ", $e->getPrevious()->getMessage(), "\n";
}
var_dump($slow->isCancelled(), await($sc));

// A token that already fired throws at once.
$t = timeout(1);
delay(5);
$busy = new Scope();
$busy->spawn(fn() => delay(50));
try { $busy->awaitCompletion($t); } catch (Async\OperationCanceledException $e) { echo "already fired\n"; }

// From inside the scope or a descendant.
$g = new Scope();
$gi = Scope::inherit($g);
$c = $gi->spawn(function () use ($g) {
    try { $g->awaitCompletion(timeout(10)); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }
});
await($c);

// A cancelled scope.
$busy->cancel();
try { $busy->awaitCompletion(timeout(10)); } catch (Async\AsyncCancellation $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }

// Token is required and must be Awaitable.
try { $g->awaitCompletion(); } catch (ArgumentCountError $e) { echo "ArgumentCountError\n"; }
try { $g->awaitCompletion(new stdClass); } catch (TypeError $e) { echo "TypeError\n"; }
?>
--EXPECT--
b,a,inner
bool(true)
Async\OperationCanceledException: Operation has been cancelled / Async\TimeoutException: Timeout occurred after 5 milliseconds
bool(false)
string(13) "still running"
already fired
Cannot await completion of scope from a coroutine that belongs to the same scope or its children
Async\AsyncCancellation: The scope has been cancelled
ArgumentCountError
TypeError
