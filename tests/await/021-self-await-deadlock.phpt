--TEST--
await_*: a coroutine awaiting itself in the list ends in the deadlock path (or the token's error), never a hang or a crash
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use function Async\{await_all, await_any_or_fail, await_first_success, await, spawn, delay, current_coroutine, timeout};

// With a token the token ends it.
echo await(spawn(function () {
    try { await_all([current_coroutine(), spawn(fn() => 'other')], timeout(10)); }
    catch (Async\OperationCanceledException $e) { return "token: " . describe($e); }
})), "\n";

// The others can still decide the wait.
echo await(spawn(fn() => await_any_or_fail([current_coroutine(), spawn(fn() => 'someone else')]))), "\n";

// Main awaiting itself: the deadlock cancels it (catchable), main goes on; the process still ends with DeadlockError.
try { await_all(['me' => current_coroutine()]); } catch (Async\AsyncCancellation $e) { echo "main: ", describe($e), "\n"; }
var_dump(await_first_success([spawn(fn() => 'main recovered')])[0]);

// A coroutine awaiting itself, nobody awaiting it: cancelled by the deadlock detector after the script.
spawn(function () {
    try { await_all([current_coroutine()]); } catch (Async\AsyncCancellation $e) { echo "self: ", describe($e), "\n"; }
});
echo "end of script\n";
?>
--EXPECTF--
token: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 10 milliseconds)
someone else
main: Async\AsyncCancellation(Deadlock detected)
string(14) "main recovered"
end of script
self: Async\AsyncCancellation(Deadlock detected)

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s021-self-await-deadlock.php:15
Stack trace:
#0 %s021-self-await-deadlock.php(15): Async\await_all()
#1 {main}

Next Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s021-self-await-deadlock.php:6
Stack trace:
#0 {main}
  thrown in %s021-self-await-deadlock.php on line 6
