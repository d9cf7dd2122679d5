--TEST--
graceful_shutdown(): every coroutine is cancelled with "Graceful shutdown", later spawns too; the script goes on
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay, graceful_shutdown, protect};

$a = spawn(function () { try { delay(5000); } catch (Async\AsyncCancellation $e) { echo "a: ", $e->getMessage(), "\n"; } });
$b = spawn(function () {
    try { protect(function () { delay(5000); echo "not reached\n"; }); }
    catch (Async\AsyncCancellation $e) { echo "b: protect() does not hold back a graceful shutdown\n"; }
});
$trigger = spawn(function () { delay(1); graceful_shutdown(new Async\AsyncCancellation("ignored argument")); });
await($trigger);
await($a);
await($b);
echo "main continues\n";
$late = spawn(fn() => "never");
try { await($late); } catch (Async\AsyncCancellation $e) { echo "late: ", $e->getMessage(), "\n"; }
var_dump($a->isCancelled(), $b->isCompleted());
?>
--EXPECT--
a: Graceful shutdown
b: protect() does not hold back a graceful shutdown
main continues
late: Graceful shutdown
bool(true)
bool(true)
