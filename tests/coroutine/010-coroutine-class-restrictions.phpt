--TEST--
Async\Coroutine cannot be instantiated, cloned, extended, serialized or given dynamic properties
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

function t(callable $f) {
    try {
        $f();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}

t(fn() => new Async\Coroutine());
t(fn() => (new ReflectionClass(Async\Coroutine::class))->newInstanceWithoutConstructor());
t(fn() => unserialize('O:15:"Async\Coroutine":0:{}'));
$c = spawn(fn() => 1);
t(fn() => clone $c);
t(fn() => serialize($c));
t(function () use ($c) { $c->foo = 1; });
var_dump((new ReflectionClass(Async\Coroutine::class))->isFinal());
var_dump($c instanceof Async\Completable, $c instanceof Async\Awaitable);
var_dump(await($c));
?>
--EXPECT--
Error: Call to private Async\Coroutine::__construct() from global scope
ReflectionException: Class Async\Coroutine is an internal class marked as final that cannot be instantiated without invoking its constructor
Exception: Unserialization of 'Async\Coroutine' is not allowed
Error: Trying to clone an uncloneable object of class Async\Coroutine
Exception: Serialization of 'Async\Coroutine' is not allowed
Error: Cannot create dynamic property Async\Coroutine::$foo
bool(true)
bool(true)
bool(true)
int(1)
