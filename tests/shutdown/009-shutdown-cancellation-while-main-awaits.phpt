--TEST--
The cancellation of a graceful shutdown, made while main awaits the coroutine, does not hold that coroutine (no cycle, memory-clean)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

function has_args(Throwable $e): string {
    foreach ($e->getTrace() as $frame) {
        if (array_key_exists('args', $frame)) {
            return "with argument values";
        }
    }
    return "without argument values";
}

$c = spawn(function () {
    try {
        delay(10000);
    } catch (Async\AsyncCancellation $e) {
        echo get_class($e), ": ", $e->getMessage(), ", trace ", has_args($e), "\n";
        throw $e;
    }
});
spawn(function () { delay(5); undefined_function(); });
await($c); // main's frame holds $c: the cancellation made here must not capture it
echo "not reached\n";
?>
--EXPECTF--
Async\AsyncCancellation: Graceful shutdown, trace without argument values

Fatal error: Uncaught Error: Call to undefined function undefined_function() in %s:%d
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in %s on line %d
