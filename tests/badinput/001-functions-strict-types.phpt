--TEST--
Async\ functions under strict_types=1: wrong types, null, too few/many args, bad named args give PHP's standard errors
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
declare(strict_types=1);
use function Async\{spawn, await, suspend, delay, protect, current_coroutine, coroutine_context, get_coroutines};

function t(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: no error (", is_scalar($r) || $r === null ? var_export($r, true) : get_debug_type($r), ")\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}

t("spawn int", fn() => spawn(123));
t("spawn null", fn() => spawn(null));
t("spawn array", fn() => spawn([1, 2]));
t("spawn object", fn() => spawn(new stdClass));
t("spawn none", fn() => spawn());
// Extra named arguments are passed on to the task, so the error comes from calling it.
t("spawn unknown named", fn() => await(spawn(fn() => 1, ...['zz' => 1])));
t("spawn named task", fn() => await(spawn(task: fn() => "ok")));

t("await string", fn() => await("x"));
t("await float", fn() => await(1.5));
t("await null", fn() => await(null));
t("await closure", fn() => await(fn() => 1));
t("await generator", fn() => await((function () { yield 1; })()));
t("await fiber", fn() => await(new Fiber(fn() => 1)));
t("await context", fn() => await(coroutine_context()));
t("await none", fn() => await());
$c = spawn(fn() => "r");
t("await bad token", fn() => await($c, "token"));
t("await context token", fn() => await($c, coroutine_context()));
t("await 3 args", fn() => await($c, null, null));
t("await unknown named", fn() => await($c, nope: 1));

t("delay string", fn() => delay("5"));
t("delay float", fn() => delay(1.0));
t("delay bool", fn() => delay(true));
t("delay null", fn() => delay(null));
t("delay array", fn() => delay([]));
t("delay none", fn() => delay());
t("delay 2 args", fn() => delay(1, 2));
t("delay named", fn() => delay(ms: 0));
t("delay bad named", fn() => delay(milliseconds: 0));

t("protect string", fn() => protect("strlen"));
t("protect array callable", fn() => protect([new ArrayObject([]), "count"]));
t("protect null", fn() => protect(null));
t("protect none", fn() => protect());
t("protect 2 args", fn() => protect(fn() => 1, 2));

t("suspend arg", fn() => suspend(null));
t("current_coroutine arg", fn() => current_coroutine(null));
t("coroutine_context arg", fn() => coroutine_context(null));
t("get_coroutines arg", fn() => get_coroutines(null));

t("await result", fn() => await($c));
echo "done\n";
?>
--EXPECTF--
spawn int: TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, no array or string given
spawn null: TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, no array or string given
spawn array: TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, first array member is not a valid class name or object
spawn object: TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, no array or string given
spawn none: ArgumentCountError: Async\spawn() expects at least 1 argument, 0 given
spawn unknown named: Error: Unknown named parameter $zz
spawn named task: no error ('ok')
await string: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, string given
await float: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, float given
await null: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, null given
await closure: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, Closure given
await generator: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, Generator given
await fiber: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, Fiber given
await context: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, Async\Context given
await none: ArgumentCountError: Async\await() expects at least 1 argument, 0 given
await bad token: TypeError: Async\await(): Argument #2 ($cancellation) must be of type ?Async\Completable, string given
await context token: TypeError: Async\await(): Argument #2 ($cancellation) must be of type ?Async\Completable, Async\Context given
await 3 args: ArgumentCountError: Async\await() expects at most 2 arguments, 3 given
await unknown named: Error: Unknown named parameter $nope
delay string: TypeError: Async\delay(): Argument #1 ($ms) must be of type int, string given
delay float: TypeError: Async\delay(): Argument #1 ($ms) must be of type int, float given
delay bool: TypeError: Async\delay(): Argument #1 ($ms) must be of type int, %r(bool|true)%r given
delay null: TypeError: Async\delay(): Argument #1 ($ms) must be of type int, null given
delay array: TypeError: Async\delay(): Argument #1 ($ms) must be of type int, array given
delay none: ArgumentCountError: Async\delay() expects exactly 1 argument, 0 given
delay 2 args: ArgumentCountError: Async\delay() expects exactly 1 argument, 2 given
delay named: no error (NULL)
delay bad named: Error: Unknown named parameter $milliseconds
protect string: TypeError: Async\protect(): Argument #1 ($closure) must be of type Closure, string given
protect array callable: TypeError: Async\protect(): Argument #1 ($closure) must be of type Closure, array given
protect null: TypeError: Async\protect(): Argument #1 ($closure) must be of type Closure, null given
protect none: ArgumentCountError: Async\protect() expects exactly 1 argument, 0 given
protect 2 args: ArgumentCountError: Async\protect() expects exactly 1 argument, 2 given
suspend arg: ArgumentCountError: Async\suspend() expects exactly 0 arguments, 1 given
current_coroutine arg: ArgumentCountError: Async\current_coroutine() expects exactly 0 arguments, 1 given
coroutine_context arg: ArgumentCountError: Async\coroutine_context() expects exactly 0 arguments, 1 given
get_coroutines arg: ArgumentCountError: Async\get_coroutines() expects exactly 0 arguments, 1 given
await result: no error ('r')
done
