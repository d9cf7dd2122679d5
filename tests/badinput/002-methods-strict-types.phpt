--TEST--
Coroutine, Context and exception-class methods under strict_types=1: wrong types, null, arity, named args
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
declare(strict_types=1);
use function Async\{spawn, await, coroutine_context};

function t(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: no error (", is_scalar($r) || $r === null ? var_export($r, true) : get_debug_type($r), ")\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}

$c = spawn(fn() => "result");
t("cancel string", fn() => $c->cancel("x"));
t("cancel Exception", fn() => $c->cancel(new RuntimeException("x")));
t("cancel Cancellation", fn() => $c->cancel(new Cancellation("x")));
t("cancel DeadlockError", fn() => $c->cancel(new Async\DeadlockError("x")));
t("cancel AsyncException", fn() => $c->cancel(new Async\AsyncException("x")));
t("cancel int", fn() => $c->cancel(1));
t("cancel false", fn() => $c->cancel(false));
t("cancel named", fn() => $c->cancel(cancel: null));
t("finally null", fn() => $c->finally(null));
t("finally callable string", fn() => $c->finally("var_dump"));
t("finally invokable", fn() => $c->finally(new class { function __invoke() {} }));
t("getTrace string", fn() => $c->getTrace("1"));
t("getTrace float", fn() => $c->getTrace(1.0));
t("getTrace null", fn() => $c->getTrace(null));
t("getTrace limit null", fn() => $c->getTrace(0, null));
t("getTrace named", fn() => $c->getTrace(limit: 1, options: 0));
t("getTrace bad named", fn() => $c->getTrace(depth: 1));
t("getId arg", fn() => $c->getId(null));
t("isCompleted named", fn() => $c->isCompleted(x: 1));
// The coroutine is untouched by all of the above.
t("await", fn() => await($c));

$ctx = coroutine_context();
foreach (['find', 'get', 'has', 'findLocal', 'getLocal', 'hasLocal', 'unset'] as $m) {
    t("$m int", fn() => $ctx->$m(1));
    t("$m null", fn() => $ctx->$m(null));
    t("$m bool", fn() => $ctx->$m(true));
    t("$m float", fn() => $ctx->$m(1.5));
    t("$m 2 args", fn() => $ctx->$m("k", "extra"));
}
t("set int key", fn() => $ctx->set(1, "v"));
t("set null key", fn() => $ctx->set(null, "v"));
t("set replace int", fn() => $ctx->set("k", "v", 1));
t("set replace string", fn() => $ctx->set("k", "v", "yes"));
t("set replace null", fn() => $ctx->set("k", "v", null));
t("set none", fn() => $ctx->set());
t("set named", fn() => $ctx->set(value: 1, key: "named", replace: true)->get("named"));
t("set bad named", fn() => $ctx->set("k", 1, overwrite: true));
t("has(k) after all", fn() => $ctx->has("k"));

$comp = new Async\CompositeException("c");
t("addException string", fn() => $comp->addException("e"));
t("addException null", fn() => $comp->addException(null));
t("addException stdClass", fn() => $comp->addException(new stdClass));
t("addException none", fn() => $comp->addException());
t("addException 2", fn() => $comp->addException(new Exception("a"), new Exception("b")));
t("getExceptions arg", fn() => $comp->getExceptions(1));
t("count", fn() => count($comp->getExceptions()));
$re = new Async\RemoteException("r");
t("getRemoteException arg", fn() => $re->getRemoteException(1));
t("getRemoteClass arg", fn() => $re->getRemoteClass(1));
?>
--EXPECTF--
cancel string: TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, string given
cancel Exception: TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, RuntimeException given
cancel Cancellation: TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, Cancellation given
cancel DeadlockError: TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, Async\DeadlockError given
cancel AsyncException: TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, Async\AsyncException given
cancel int: TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, int given
cancel false: TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, %r(bool|false)%r given
cancel named: Error: Unknown named parameter $cancel
finally null: TypeError: Async\Coroutine::finally(): Argument #1 ($callback) must be of type Closure, null given
finally callable string: TypeError: Async\Coroutine::finally(): Argument #1 ($callback) must be of type Closure, string given
finally invokable: TypeError: Async\Coroutine::finally(): Argument #1 ($callback) must be of type Closure, class@anonymous given
getTrace string: TypeError: Async\Coroutine::getTrace(): Argument #1 ($options) must be of type int, string given
getTrace float: TypeError: Async\Coroutine::getTrace(): Argument #1 ($options) must be of type int, float given
getTrace null: TypeError: Async\Coroutine::getTrace(): Argument #1 ($options) must be of type int, null given
getTrace limit null: TypeError: Async\Coroutine::getTrace(): Argument #2 ($limit) must be of type int, null given
getTrace named: no error (NULL)
getTrace bad named: Error: Unknown named parameter $depth
getId arg: ArgumentCountError: Async\Coroutine::getId() expects exactly 0 arguments, 1 given
isCompleted named: Error: Unknown named parameter $x
await: no error ('result')
find int: TypeError: Async\Context::find(): Argument #1 ($key) must be of type string|object, int given
find null: TypeError: Async\Context::find(): Argument #1 ($key) must be of type string|object, null given
find bool: TypeError: Async\Context::find(): Argument #1 ($key) must be of type string|object, bool given
find float: TypeError: Async\Context::find(): Argument #1 ($key) must be of type string|object, float given
find 2 args: ArgumentCountError: Async\Context::find() expects exactly 1 argument, 2 given
get int: TypeError: Async\Context::get(): Argument #1 ($key) must be of type string|object, int given
get null: TypeError: Async\Context::get(): Argument #1 ($key) must be of type string|object, null given
get bool: TypeError: Async\Context::get(): Argument #1 ($key) must be of type string|object, bool given
get float: TypeError: Async\Context::get(): Argument #1 ($key) must be of type string|object, float given
get 2 args: ArgumentCountError: Async\Context::get() expects exactly 1 argument, 2 given
has int: TypeError: Async\Context::has(): Argument #1 ($key) must be of type string|object, int given
has null: TypeError: Async\Context::has(): Argument #1 ($key) must be of type string|object, null given
has bool: TypeError: Async\Context::has(): Argument #1 ($key) must be of type string|object, bool given
has float: TypeError: Async\Context::has(): Argument #1 ($key) must be of type string|object, float given
has 2 args: ArgumentCountError: Async\Context::has() expects exactly 1 argument, 2 given
findLocal int: TypeError: Async\Context::findLocal(): Argument #1 ($key) must be of type string|object, int given
findLocal null: TypeError: Async\Context::findLocal(): Argument #1 ($key) must be of type string|object, null given
findLocal bool: TypeError: Async\Context::findLocal(): Argument #1 ($key) must be of type string|object, bool given
findLocal float: TypeError: Async\Context::findLocal(): Argument #1 ($key) must be of type string|object, float given
findLocal 2 args: ArgumentCountError: Async\Context::findLocal() expects exactly 1 argument, 2 given
getLocal int: TypeError: Async\Context::getLocal(): Argument #1 ($key) must be of type string|object, int given
getLocal null: TypeError: Async\Context::getLocal(): Argument #1 ($key) must be of type string|object, null given
getLocal bool: TypeError: Async\Context::getLocal(): Argument #1 ($key) must be of type string|object, bool given
getLocal float: TypeError: Async\Context::getLocal(): Argument #1 ($key) must be of type string|object, float given
getLocal 2 args: ArgumentCountError: Async\Context::getLocal() expects exactly 1 argument, 2 given
hasLocal int: TypeError: Async\Context::hasLocal(): Argument #1 ($key) must be of type string|object, int given
hasLocal null: TypeError: Async\Context::hasLocal(): Argument #1 ($key) must be of type string|object, null given
hasLocal bool: TypeError: Async\Context::hasLocal(): Argument #1 ($key) must be of type string|object, bool given
hasLocal float: TypeError: Async\Context::hasLocal(): Argument #1 ($key) must be of type string|object, float given
hasLocal 2 args: ArgumentCountError: Async\Context::hasLocal() expects exactly 1 argument, 2 given
unset int: TypeError: Async\Context::unset(): Argument #1 ($key) must be of type string|object, int given
unset null: TypeError: Async\Context::unset(): Argument #1 ($key) must be of type string|object, null given
unset bool: TypeError: Async\Context::unset(): Argument #1 ($key) must be of type string|object, bool given
unset float: TypeError: Async\Context::unset(): Argument #1 ($key) must be of type string|object, float given
unset 2 args: ArgumentCountError: Async\Context::unset() expects exactly 1 argument, 2 given
set int key: TypeError: Async\Context::set(): Argument #1 ($key) must be of type string|object, int given
set null key: TypeError: Async\Context::set(): Argument #1 ($key) must be of type string|object, null given
set replace int: TypeError: Async\Context::set(): Argument #3 ($replace) must be of type bool, int given
set replace string: TypeError: Async\Context::set(): Argument #3 ($replace) must be of type bool, string given
set replace null: TypeError: Async\Context::set(): Argument #3 ($replace) must be of type bool, null given
set none: ArgumentCountError: Async\Context::set() expects at least 2 arguments, 0 given
set named: no error (1)
set bad named: Error: Unknown named parameter $overwrite
has(k) after all: no error (false)
addException string: TypeError: Async\CompositeException::addException(): Argument #1 ($exception) must be of type Throwable, string given
addException null: TypeError: Async\CompositeException::addException(): Argument #1 ($exception) must be of type Throwable, null given
addException stdClass: TypeError: Async\CompositeException::addException(): Argument #1 ($exception) must be of type Throwable, stdClass given
addException none: ArgumentCountError: Async\CompositeException::addException() expects exactly 1 argument, 0 given
addException 2: ArgumentCountError: Async\CompositeException::addException() expects exactly 1 argument, 2 given
getExceptions arg: ArgumentCountError: Async\CompositeException::getExceptions() expects exactly 0 arguments, 1 given
count: no error (0)
getRemoteException arg: ArgumentCountError: Async\RemoteException::getRemoteException() expects exactly 0 arguments, 1 given
getRemoteClass arg: ArgumentCountError: Async\RemoteException::getRemoteClass() expects exactly 0 arguments, 1 given
