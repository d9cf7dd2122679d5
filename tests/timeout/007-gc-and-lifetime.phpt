--TEST--
timeout(): a Timeout only a waiter holds stays alive for the wait; a cycle through its cancellation is collected
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, delay, timeout};

// Only the waiter holds the Timeout: it stays alive until the wait ends.
$co = spawn(function () {
    try { await(spawn(fn() => delay(200)), timeout(10)); } catch (Async\OperationCanceledException $e) { return "fired"; }
});
var_dump(await($co));

// The cancellation's trace holds the Timeout (an argument of cancelIt()): Timeout -> cancellation
// -> trace -> Timeout. Only the GC can break it, and it does.
class Marker { public function __destruct() { echo "marker destroyed\n"; } }
function cancelIt(Async\Timeout $t, Marker $m) { $t->cancel(new Async\AsyncCancellation("cycle")); }
$t = timeout(100);
cancelIt($t, new Marker);
echo "after cancel\n";
unset($t);
var_dump(gc_collect_cycles() > 0);

// Dropped by its creator while a coroutine waits on it: the waiter's reference keeps it armed.
$t = timeout(50);
$w = spawn(function () use ($t) {
    try { await(spawn(fn() => delay(500)), $t); } catch (Async\OperationCanceledException $e) { return $e->getPrevious()->getMessage(); }
});
unset($t);
var_dump(await($w));
echo "end\n";
?>
--EXPECT--
string(5) "fired"
after cancel
marker destroyed
bool(true)
string(38) "Timeout occurred after 50 milliseconds"
end
