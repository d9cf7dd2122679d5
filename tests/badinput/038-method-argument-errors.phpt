--TEST--
Coroutine and Context methods reject wrong arguments with PHP's standard errors
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, coroutine_context};

function t(callable $f) {
    try {
        $f();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}

$c = spawn(fn() => 1);
t(fn() => $c->cancel(new Exception("x")));
t(fn() => $c->cancel("x"));
t(fn() => $c->cancel(new Cancellation("x")));
t(fn() => $c->cancel(new Error("x")));
t(fn() => $c->cancel(null, 1));
t(fn() => $c->finally("strlen"));
t(fn() => $c->finally());
t(fn() => $c->finally(fn() => 1, 2));
t(fn() => $c->getTrace("x"));
t(fn() => $c->getTrace(1, "y"));
t(fn() => $c->getTrace(1, 2, 3));
foreach (['getId', 'asHiPriority', 'getContext', 'getResult', 'getException', 'getSpawnFileAndLine',
          'getSpawnLocation', 'getSuspendFileAndLine', 'getSuspendLocation', 'isStarted', 'isQueued',
          'isRunning', 'isSuspended', 'isCancelled', 'isCancellationRequested', 'isCompleted',
          'getAwaitingInfo'] as $m) {
    t(fn() => $c->$m(1));
}
// None of the above was a cancel: the coroutine still runs normally.
var_dump(await($c));

$ctx = coroutine_context();
t(fn() => $ctx->set([], 1));
t(fn() => $ctx->set("a"));
t(fn() => $ctx->set("a", 1, []));
t(fn() => $ctx->set("a", 1, false, 4));
t(fn() => $ctx->get([]));
t(fn() => $ctx->find([]));
t(fn() => $ctx->has([]));
t(fn() => $ctx->getLocal([]));
t(fn() => $ctx->findLocal([]));
t(fn() => $ctx->hasLocal([]));
t(fn() => $ctx->unset([]));
t(fn() => $ctx->get());
t(fn() => $ctx->unset());
?>
--EXPECT--
TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, Exception given
TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, string given
TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, Cancellation given
TypeError: Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, Error given
ArgumentCountError: Async\Coroutine::cancel() expects at most 1 argument, 2 given
TypeError: Async\Coroutine::finally(): Argument #1 ($callback) must be of type Closure, string given
ArgumentCountError: Async\Coroutine::finally() expects exactly 1 argument, 0 given
ArgumentCountError: Async\Coroutine::finally() expects exactly 1 argument, 2 given
TypeError: Async\Coroutine::getTrace(): Argument #1 ($options) must be of type int, string given
TypeError: Async\Coroutine::getTrace(): Argument #2 ($limit) must be of type int, string given
ArgumentCountError: Async\Coroutine::getTrace() expects at most 2 arguments, 3 given
ArgumentCountError: Async\Coroutine::getId() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::asHiPriority() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::getContext() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::getResult() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::getException() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::getSpawnFileAndLine() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::getSpawnLocation() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::getSuspendFileAndLine() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::getSuspendLocation() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::isStarted() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::isQueued() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::isRunning() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::isSuspended() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::isCancelled() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::isCancellationRequested() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::isCompleted() expects exactly 0 arguments, 1 given
ArgumentCountError: Async\Coroutine::getAwaitingInfo() expects exactly 0 arguments, 1 given
int(1)
TypeError: Async\Context::set(): Argument #1 ($key) must be of type string|object, array given
ArgumentCountError: Async\Context::set() expects at least 2 arguments, 1 given
TypeError: Async\Context::set(): Argument #3 ($replace) must be of type bool, array given
ArgumentCountError: Async\Context::set() expects at most 3 arguments, 4 given
TypeError: Async\Context::get(): Argument #1 ($key) must be of type string|object, array given
TypeError: Async\Context::find(): Argument #1 ($key) must be of type string|object, array given
TypeError: Async\Context::has(): Argument #1 ($key) must be of type string|object, array given
TypeError: Async\Context::getLocal(): Argument #1 ($key) must be of type string|object, array given
TypeError: Async\Context::findLocal(): Argument #1 ($key) must be of type string|object, array given
TypeError: Async\Context::hasLocal(): Argument #1 ($key) must be of type string|object, array given
TypeError: Async\Context::unset(): Argument #1 ($key) must be of type string|object, array given
ArgumentCountError: Async\Context::get() expects exactly 1 argument, 0 given
ArgumentCountError: Async\Context::unset() expects exactly 1 argument, 0 given
