--TEST--
An exception from a fire-and-forget coroutine is thrown into main's current wait; other coroutines are cancelled
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

// Main awaits an unrelated coroutine; that one is cancelled by the graceful shutdown and
// main receives the original exception instead.
$long = spawn(function () {
    try {
        delay(10000);
    } catch (Async\AsyncCancellation $e) {
        echo "long: ", $e->getMessage(), "\n";
        throw $e;
    }
    return "long";
});
spawn(function () { delay(5); throw new RuntimeException("boom"); });
$t = hrtime(true);
try {
    await($long);
    echo "not reached\n";
} catch (Throwable $e) {
    echo "main await caught: ", get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump((hrtime(true) - $t) / 1e9 < 5);
var_dump($long->isCancelled());
try { await($long); } catch (Async\AsyncCancellation $e) { echo "replay: ", $e->getMessage(), "\n"; }
echo "end\n";
?>
--EXPECT--
long: Graceful shutdown
main await caught: RuntimeException: boom
bool(true)
bool(true)
replay: Graceful shutdown
end
