--TEST--
An exception from a fire-and-forget coroutine is thrown into main's current wait (delay or await)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

spawn(function () { throw new Exception("boom"); });
try {
    delay(1000);
    echo "not reached\n";
} catch (Exception $e) {
    echo "main delay caught: ", $e->getMessage(), "\n";
}

// Main awaits an unrelated coroutine; the unrelated one is cancelled by the shutdown,
// main receives the original exception.
$long = spawn(function () { delay(10000); return "long"; });
spawn(function () { delay(5); throw new RuntimeException("boom2"); });
try {
    await($long);
    echo "not reached\n";
} catch (Throwable $e) {
    echo "main await caught: ", get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump($long->isCancelled());
try { await($long); } catch (Async\AsyncCancellation $e) { echo "long: ", $e->getMessage(), "\n"; }
echo "end\n";
?>
--EXPECT--
main delay caught: boom
main await caught: RuntimeException: boom2
bool(true)
long: Graceful shutdown
end
