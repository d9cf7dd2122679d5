--TEST--
Errors from calling the task itself (by-reference parameter, internal function with bad args) point at the script, not at "Unknown on line 0"
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

function where(Throwable $e): string {
    return get_class($e) . ": " . $e->getMessage() . " @ " . basename($e->getFile()) . ":" . ($e->getLine() > 0 ? "line" : "0");
}

// A Fiber reports these at the line that started it; a coroutine should be as clear.
function by_ref(&$x) { $x = 2; return "by_ref ran"; }
var_dump(await(spawn('by_ref', 1)));
var_dump(await(spawn(function (&$x) { return "closure ran"; }, 1)));

foreach ([
    'internal function, too few args' => fn() => spawn('str_repeat', "x"),
    'internal function, wrong type' => fn() => spawn('str_repeat', "x", "many"),
    'user function, too few args' => fn() => spawn(fn(int $a) => $a),
    'user function, wrong type' => fn() => spawn(fn(int $a) => $a, "abc"),
] as $label => $make) {
    try {
        await($make());
    } catch (Throwable $e) {
        echo "$label: ", where($e), "\n";
    }
}
?>
--EXPECTF--
Warning: by_ref(): Argument #1 ($x) must be passed by reference, value given in %s035-task-call-errors-location.php on line %d
string(10) "by_ref ran"

Warning: {closure%S}(): Argument #1 ($x) must be passed by reference, value given in %s035-task-call-errors-location.php on line %d
string(11) "closure ran"
internal function, too few args: ArgumentCountError: str_repeat() expects exactly 2 arguments, 1 given @ 035-task-call-errors-location.php:line
internal function, wrong type: TypeError: str_repeat(): Argument #2 ($times) must be of type int, string given @ 035-task-call-errors-location.php:line
user function, too few args: ArgumentCountError: Too few arguments to function {closure%S}(), 0 passed and exactly 1 expected @ 035-task-call-errors-location.php:line
user function, wrong type: TypeError: {closure%S}(): Argument #1 ($a) must be of type int, string given @ 035-task-call-errors-location.php:line
