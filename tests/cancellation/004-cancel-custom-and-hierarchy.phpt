--TEST--
Custom cancellation objects, AsyncCancellation subclasses and the exception hierarchy
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};
use Async\AsyncCancellation;

class ShutdownRequested extends AsyncCancellation {}

$c = spawn(function () {
    try {
        delay(10000);
    } catch (ShutdownRequested $e) {
        echo "coroutine: ", get_class($e), " ", $e->getMessage(), "\n";
        throw $e;
    }
});
suspend();
$err = new ShutdownRequested("bye", 3);
$c->cancel($err);
try {
    await($c);
} catch (AsyncCancellation $e) {
    var_dump($e === $err, $e === $c->getException(), $c->isCancelled());
}

// A cancellation is not an \Exception: catch (Exception) does not swallow it.
$d = spawn(function () {
    try {
        delay(10000);
    } catch (Exception $e) {
        echo "wrongly caught as Exception\n";
    }
    return "not this";
});
suspend();
$d->cancel();
try {
    await($d);
} catch (Cancellation $e) {
    echo "caught as \\Cancellation: ", $e->getMessage(), "\n";
}

// Hierarchy.
var_dump(get_parent_class(Cancellation::class));
var_dump(get_parent_class(AsyncCancellation::class));
var_dump(get_parent_class(Async\OperationCanceledException::class));
var_dump(get_parent_class(Async\DeadlockError::class));
var_dump(get_parent_class(Async\AsyncException::class));
var_dump(get_parent_class(Async\ContextException::class));
var_dump(get_parent_class(Async\TimeoutException::class));
var_dump(get_parent_class(Async\CompositeException::class));
var_dump((new ReflectionClass(Async\CompositeException::class))->isFinal());
var_dump(is_subclass_of(AsyncCancellation::class, Throwable::class));
var_dump(is_subclass_of(AsyncCancellation::class, Exception::class));
?>
--EXPECT--
coroutine: ShutdownRequested bye
bool(true)
bool(true)
bool(true)
caught as \Cancellation: Coroutine cancelled
string(5) "Error"
string(12) "Cancellation"
string(23) "Async\AsyncCancellation"
string(5) "Error"
string(9) "Exception"
string(20) "Async\AsyncException"
string(9) "Exception"
string(9) "Exception"
bool(true)
bool(true)
bool(false)
