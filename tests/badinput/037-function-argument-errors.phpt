--TEST--
Async\ functions reject wrong arguments with PHP's standard TypeError/ValueError/ArgumentCountError
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, protect, current_coroutine, coroutine_context, get_coroutines};

function t(callable $f) {
    try {
        $f();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}

t(fn() => spawn(123));
t(fn() => spawn("no_such_function_abc"));
t(fn() => spawn([new stdClass, "nope"]));
t(fn() => spawn());
t(fn() => await(1));
t(fn() => await(new stdClass));
t(fn() => await(null));
t(fn() => await());
t(fn() => delay("x"));
t(fn() => delay(-1));
t(fn() => delay(PHP_INT_MIN));
t(fn() => delay());
t(fn() => delay(1, 2));
t(fn() => delay(null));
t(fn() => protect("strlen"));
t(fn() => protect());
t(fn() => protect(fn() => 1, 2));
t(fn() => suspend(1));
t(fn() => current_coroutine(1));
t(fn() => coroutine_context(1));
t(fn() => get_coroutines(1));

$c = spawn(fn() => 1);
t(fn() => await($c, 5));
t(fn() => await($c, new stdClass));
t(fn() => await($c, null, 1));
await($c);
echo "done\n";
?>
--EXPECTF--
TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, no array or string given
TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, function "no_such_function_abc" not found or invalid function name
TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, class stdClass does not have a method "nope"
ArgumentCountError: Async\spawn() expects at least 1 argument, 0 given
TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, int given
TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, stdClass given
TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, null given
ArgumentCountError: Async\await() expects at least 1 argument, 0 given
TypeError: Async\delay(): Argument #1 ($ms) must be of type int, string given
ValueError: Async\delay(): Argument #1 ($ms) must be greater than or equal to 0
ValueError: Async\delay(): Argument #1 ($ms) must be greater than or equal to 0
ArgumentCountError: Async\delay() expects exactly 1 argument, 0 given
ArgumentCountError: Async\delay() expects exactly 1 argument, 2 given

Deprecated: Async\delay(): Passing null to parameter #1 ($ms) of type int is deprecated in %s on line %d
no error
TypeError: Async\protect(): Argument #1 ($closure) must be of type Closure, string given
ArgumentCountError: Async\protect() expects exactly 1 argument, 0 given
ArgumentCountError: Async\protect() expects exactly 1 argument, 2 given
ArgumentCountError: Async\suspend() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\current_coroutine() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\coroutine_context() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\get_coroutines() expects exactly 0 arguments, 1 given
TypeError: Async\await(): Argument #2 ($cancellation) must be of type ?Async\Completable, int given
TypeError: Async\await(): Argument #2 ($cancellation) must be of type ?Async\Completable, stdClass given
ArgumentCountError: Async\await() expects at most 2 arguments, 3 given
done
