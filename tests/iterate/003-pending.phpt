--TEST--
iterate(): coroutines spawned inside callbacks are cancelled after the iteration (cancelPending = true) or awaited (false); they live in a not-safe child scope
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\AsyncCancellation;
use function Async\{iterate, delay, spawn, await};

$log = [];
iterate([1, 2], function ($v) use (&$log) {
    spawn(function () use ($v, &$log) {
        try { delay(1000); $log[] = "pending $v finished"; }
        catch (AsyncCancellation $e) { $log[] = "pending $v: " . get_class($e) . ": " . $e->getMessage(); }
    });
    // A pending coroutine that ends before the callbacks do is not affected.
    spawn(function () use ($v, &$log) { $log[] = "quick $v"; });
    delay(5);
});
echo "iterate returned\n";
delay(1); // the cancelled coroutines unwind when they next run
sort($log);
echo implode("\n", $log), "\n";

$log = [];
$t = hrtime(true);
iterate([1, 2], function ($v) use (&$log) {
    spawn(function () use ($v, &$log) { delay(20 * $v); $log[] = "pending $v finished"; });
}, 0, false);
echo "awaited: ", implode(", ", $log), "; took at least 40 ms: ", (hrtime(true) - $t) >= 39e6 ? "yes" : "no", "\n";

// Nothing pending: returns at once either way.
iterate([1], fn() => null, 0, false);
iterate([1], fn() => null, 0, true);

// The caller's own other coroutines are not touched.
$outside = spawn(function () { delay(30); return "outside survived"; });
iterate([1], function () { spawn(fn() => delay(1000)); });
var_dump(await($outside));

// A pending coroutine that fails after the iteration: its error takes the normal path (here it is
// caught by its own handle, so nothing else happens).
$handle = null;
iterate([1], function () use (&$handle) { $handle = spawn(function () { delay(5); throw new RuntimeException("late failure"); }); }, 0, false);
try { await($handle); } catch (RuntimeException $e) { echo "handle: ", $e->getMessage(), "\n"; }
?>
--EXPECT--
iterate returned
pending 1: Async\AsyncCancellation: Cancellation of pending coroutines after iterator completion
pending 2: Async\AsyncCancellation: Cancellation of pending coroutines after iterator completion
quick 1
quick 2
awaited: pending 1 finished, pending 2 finished; took at least 40 ms: yes
string(16) "outside survived"
handle: late failure
