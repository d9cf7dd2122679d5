--TEST--
Coroutines spawned while a graceful shutdown is in progress are cancelled immediately
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$late = null;
$a = spawn(function () use (&$late) {
    try {
        delay(10000);
    } catch (Async\AsyncCancellation $e) {
        echo "a: ", $e->getMessage(), "\n";
        $late = spawn(function () { echo "late coroutine WRONGLY ran\n"; });
        var_dump($late->isCancelled() || $late->isCancellationRequested());
    }
});
spawn(function () { delay(5); throw new Exception("trigger"); });
try {
    delay(5000);
} catch (Exception $e) {
    echo "main: ", $e->getMessage(), "\n";
}
try { await($late); } catch (Async\AsyncCancellation $e) { echo "late: ", $e->getMessage(), "\n"; }
?>
--EXPECT--
a: Graceful shutdown
bool(true)
main: trigger
late: Graceful shutdown
