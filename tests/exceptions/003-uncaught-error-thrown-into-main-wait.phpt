--TEST--
An Error in a fire-and-forget coroutine cancels the others and is thrown into main's current wait
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, delay};

$other = spawn(function () {
    try {
        delay(10000);
    } catch (Async\AsyncCancellation $e) {
        echo "other: ", get_class($e), ": ", $e->getMessage(), "\n";
        throw $e;
    }
});
spawn(function () {
    delay(5);
    undefined_function_in_coroutine();
});
$t = hrtime(true);
try {
    delay(5000);
    echo "main: not reached\n";
} catch (Error $e) {
    echo "main caught ", get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump((hrtime(true) - $t) / 1e9 < 4);
var_dump($other->isCancelled());
echo "end\n";
?>
--EXPECT--
other: Async\AsyncCancellation: Graceful shutdown
main caught Error: Call to undefined function undefined_function_in_coroutine()
bool(true)
bool(true)
end
