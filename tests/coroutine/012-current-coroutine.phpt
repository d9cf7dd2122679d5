--TEST--
current_coroutine(): AsyncException before launch, the main coroutine afterwards, itself inside a coroutine
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, current_coroutine};

try {
    current_coroutine();
    echo "no exception\n";
} catch (Async\AsyncException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
// suspend() before launch is a no-op and does not launch either.
suspend();
try {
    current_coroutine();
} catch (Async\AsyncException $e) {
    echo "still: ", $e->getMessage(), "\n";
}

$c = spawn(function () { return current_coroutine(); });
$main = current_coroutine();
var_dump($main instanceof Async\Coroutine, $main === current_coroutine());
var_dump(await($c) === $c, $c !== $main);
var_dump($main->isStarted(), $main->isRunning(), $main->isCompleted());
?>
--EXPECT--
Async\AsyncException: The current coroutine is not defined
still: The current coroutine is not defined
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
