--TEST--
Exceptions thrown in a coroutine propagate to await(), through nested awaits
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

class MyException extends Exception {}

$c = spawn(function () {
    delay(5);
    throw new MyException("deep", 17);
});
try {
    await($c);
} catch (MyException $e) {
    echo get_class($e), " ", $e->getMessage(), " ", $e->getCode(), " line ", $e->getLine(), "\n";
}

// Through two levels: inner -> middle (not caught) -> main.
$inner = null;
$middle = spawn(function () use (&$inner) {
    $inner = spawn(function () { throw new LogicException("from inner"); });
    try {
        await($inner);
    } finally {
        echo "middle finally\n";
    }
});
try {
    await($middle);
} catch (LogicException $e) {
    echo "main caught: ", $e->getMessage(), "\n";
    var_dump($e === $inner->getException(), $e === $middle->getException());
}

// A middle coroutine that wraps the error.
$wrap = spawn(function () {
    try {
        await(spawn(function () { throw new DomainException("orig"); }));
    } catch (DomainException $e) {
        throw new RuntimeException("wrapped", 0, $e);
    }
});
try {
    await($wrap);
} catch (RuntimeException $e) {
    echo $e->getMessage(), " <- ", $e->getPrevious()->getMessage(), "\n";
}

// Errors (not only Exceptions) propagate.
try {
    await(spawn(function () { return intdiv(1, 0); }));
} catch (DivisionByZeroError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    await(spawn(function () { undefined_function_xyz(); }));
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}

// A caught exception inside the coroutine does not escape.
var_dump(await(spawn(function () {
    try { throw new Exception("x"); } catch (Exception $e) { return "handled"; }
})));
echo "end\n";
?>
--EXPECT--
MyException deep 17 line 8
middle finally
main caught: from inner
bool(true)
bool(true)
wrapped <- orig
DivisionByZeroError: Division by zero
Error: Call to undefined function undefined_function_xyz()
string(7) "handled"
end
