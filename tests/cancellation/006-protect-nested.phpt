--TEST--
Nested protect(): the deferred cancellation is thrown only when the outermost protect() returns
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, protect};
use Async\AsyncCancellation;

$c = spawn(function () {
    try {
        $outer = protect(function () {
            $inner = protect(function () {
                delay(10);
                echo "inner done\n";
                return "inner";
            });
            echo "after inner ($inner), still protected\n";
            delay(10);
            echo "outer done\n";
            return "outer";
        });
        echo "not reached: $outer\n";
    } finally {
        echo "finally\n";
    }
});
suspend();
$c->cancel();
try {
    await($c);
} catch (AsyncCancellation $e) {
    echo "await: ", $e->getMessage(), "\n";
}

// protect() inside protect() without a cancel returns both values.
var_dump(await(spawn(fn() => protect(fn() => protect(fn() => "x") . "y"))));

// An exception from the inner protect bubbles through the outer one.
$d = spawn(function () {
    return protect(function () {
        try {
            protect(function () { delay(5); throw new LogicException("inner fail"); });
        } catch (LogicException $e) {
            return "outer caught " . $e->getMessage();
        }
    });
});
var_dump(await($d));
?>
--EXPECT--
inner done
after inner (inner), still protected
outer done
finally
await: Coroutine cancelled
string(2) "xy"
string(23) "outer caught inner fail"
