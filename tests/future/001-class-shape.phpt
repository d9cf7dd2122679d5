--TEST--
Future/FutureState: class shape, construction rules, no clone/serialize/dynamic properties
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};

foreach ([FutureState::class, Future::class] as $class) {
    $rc = new ReflectionClass($class);
    echo $class, ": final=", var_export($rc->isFinal(), true),
        " completable=", var_export($rc->implementsInterface(Async\Completable::class), true),
        " awaitable=", var_export($rc->implementsInterface(Async\Awaitable::class), true), "\n";
}
var_dump((new ReflectionMethod(Future::class, 'completed'))->isStatic(), (new ReflectionMethod(Future::class, 'failed'))->isStatic());

$s = new FutureState();
$f = new Future($s);
try { $f->__construct($s); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { new Future(); } catch (ArgumentCountError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { new Future(new stdClass); } catch (TypeError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { new Future($f); } catch (TypeError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { clone $s; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { clone $f; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { serialize($s); } catch (Exception $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { serialize($f); } catch (Exception $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $f->dynamic = 1; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $s->dynamic = 1; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { (new ReflectionClass(Future::class))->newInstanceWithoutConstructor(); } catch (ReflectionException $e) { echo $e->getMessage(), "\n"; }

// A user class cannot pose as a Completable.
var_dump(Async\Future::class, get_class(Future::completed()->ignore()));
var_dump($f->isCompleted(), $s->isCompleted(), $f->isCancelled());
$s->ignore();
?>
--EXPECT--
Async\FutureState: final=true completable=false awaitable=false
Async\Future: final=true completable=true awaitable=true
bool(true)
bool(true)
Error: Async\Future is already initialized
ArgumentCountError: Async\Future::__construct() expects exactly 1 argument, 0 given
TypeError: Async\Future::__construct(): Argument #1 ($state) must be of type Async\FutureState, stdClass given
TypeError: Async\Future::__construct(): Argument #1 ($state) must be of type Async\FutureState, Async\Future given
Error: Trying to clone an uncloneable object of class Async\FutureState
Error: Trying to clone an uncloneable object of class Async\Future
Exception: Serialization of 'Async\FutureState' is not allowed
Exception: Serialization of 'Async\Future' is not allowed
Error: Cannot create dynamic property Async\Future::$dynamic
Error: Cannot create dynamic property Async\FutureState::$dynamic
Class Async\Future is an internal class marked as final that cannot be instantiated without invoking its constructor
string(12) "Async\Future"
string(12) "Async\Future"
bool(false)
bool(false)
bool(false)
