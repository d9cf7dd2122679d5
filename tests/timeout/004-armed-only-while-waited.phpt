--TEST--
timeout(): armed only while someone waits; a wait that ends first disarms it (the script does not linger), reuse restarts it
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, delay, timeout};

$start = hrtime(true);
$long = timeout(3000);
var_dump(await(spawn(function () { delay(5); return "before the timeout"; }), $long));
var_dump($long->isCompleted());
// Reused: counts afresh from the new wait, and is disarmed again after it.
var_dump(await(spawn(function () { delay(5); return "again"; }), $long));

// Two waiters share one Timeout: it fires for both.
$t = timeout(20);
$waiters = [];
foreach (['a', 'b'] as $name) {
    $waiters[] = spawn(function () use ($t, $name) {
        try { await(spawn(fn() => delay(200)), $t); } catch (Async\OperationCanceledException $e) {
            return "$name: " . $e->getPrevious()->getMessage();
        }
    });
}
foreach ($waiters as $w) { echo await($w), "\n"; }
var_dump($t->isCompleted());
$ms = (hrtime(true) - $start) / 1e6;
echo $ms < 1000 ? "did not wait for the long timeout\n" : "waited $ms ms\n";
?>
--EXPECT--
string(18) "before the timeout"
bool(false)
string(5) "again"
a: Timeout occurred after 20 milliseconds
b: Timeout occurred after 20 milliseconds
bool(true)
did not wait for the long timeout
