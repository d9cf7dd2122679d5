--TEST--
timeout(): returns an Async\Timeout (Completable, private constructor); ValueError for ms <= 0; inert until waited on
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Timeout;
use function Async\{timeout, delay};

foreach ([0, -1, PHP_INT_MIN] as $ms) {
    try { timeout($ms); } catch (ValueError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
}
try { timeout("soon"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }

$t = timeout(10);
var_dump(get_class($t), $t instanceof Async\Completable, $t instanceof Async\Awaitable);
$rc = new ReflectionClass(Timeout::class);
var_dump($rc->isFinal(), $rc->getConstructor()->isPrivate(), (string) (new ReflectionFunction('Async\timeout'))->getReturnType());
try { new Timeout(); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $rc->newInstanceWithoutConstructor(); } catch (ReflectionException $e) { echo $e->getMessage(), "\n"; }
try { clone $t; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { serialize($t); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
try { $t->x = 1; } catch (Error $e) { echo $e->getMessage(), "\n"; }

// Inert: nobody waits, so nothing is armed and nothing fires.
delay(30);
var_dump($t->isCompleted(), $t->isCancelled());

// A huge value is fine (it is only armed while waited on).
var_dump(timeout(PHP_INT_MAX)->isCompleted());
?>
--EXPECT--
ValueError: Timeout value must be greater than 0
ValueError: Timeout value must be greater than 0
ValueError: Timeout value must be greater than 0
Async\timeout(): Argument #1 ($ms) must be of type int, string given
string(13) "Async\Timeout"
bool(true)
bool(true)
bool(true)
bool(true)
string(15) "Async\Awaitable"
Error: Call to private Async\Timeout::__construct() from global scope
Class Async\Timeout is an internal class marked as final that cannot be instantiated without invoking its constructor
Trying to clone an uncloneable object of class Async\Timeout
Serialization of 'Async\Timeout' is not allowed
Cannot create dynamic property Async\Timeout::$x
bool(false)
bool(false)
bool(false)
