--TEST--
After an unobserved coroutine error was thrown into main's await, the next suspend()/delay(0) in main just yields (no spurious DeadlockError)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};

foreach (['suspend()' => fn() => suspend(), 'delay(0)' => fn() => delay(0)] as $label => $yield) {
    spawn(function () { throw new LogicException("dropped"); });
    $x = spawn(fn() => "x");
    try {
        await($x);
        echo "not reached\n";
    } catch (LogicException $e) {
        echo "await: ", $e->getMessage(), "\n";
    }
    try {
        $yield();
        echo "$label: ok\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
    try {
        $yield();
        echo "$label again: ok\n";
    } catch (Throwable $e) {
        echo "$label again: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
    var_dump(await(spawn(fn() => "recovered")));
}
?>
--EXPECT--
await: dropped
suspend(): ok
suspend() again: ok
string(9) "recovered"
await: dropped
delay(0): ok
delay(0) again: ok
string(9) "recovered"
