--TEST--
Coroutine::finally(): handlers run after completion in a helper coroutine (they may suspend; await() does not wait for them); a throwing handler does not stop later ones; their errors (one as itself, several as a CompositeException in order) go to the coroutine's scope and never replace its result or error
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{spawn, await, delay, suspend, current_coroutine};

$scope = new Scope();
$scope->setExceptionHandler(function (Scope $s, $co, Throwable $e) {
    echo "scope handler: ", get_class($e), ": ", $e->getMessage(), "\n";
    if ($e instanceof Async\CompositeException) {
        foreach ($e->getExceptions() as $x) {
            echo " - ", get_class($x), ": ", $x->getMessage(), "\n";
        }
    }
});

$c = $scope->spawn(fn() => 1);
$c->finally(function (Async\Coroutine $co) use ($c) {
    echo "handler 1: same coroutine ", var_export($co === $c, true), ", completed ", var_export($co->isCompleted(), true),
        ", runs in another coroutine ", var_export(current_coroutine() !== $c, true), "\n";
    delay(2);
    echo "handler 1 resumed after a delay\n";
    throw new RuntimeException("from handler 1");
});
$c->finally(function () { echo "handler 2 still runs\n"; });
$c->finally(function () { throw new LogicException("from handler 3"); });
var_dump(await($c));
echo "await returned before the handlers finished\n";
delay(10);

// The body failed and one handler failed: await() gives the body's error; the handler's goes to the scope.
$d = $scope->spawn(function () { throw new LogicException("body"); });
$d->finally(function () { throw new RuntimeException("handler"); });
try {
    await($d);
} catch (Throwable $e) {
    echo "await: ", get_class($e), ": ", $e->getMessage(), ", previous: ", var_export($e->getPrevious(), true), "\n";
}
delay(5);

// Immediate handler (coroutine already finished): its exception is thrown by finally() itself.
$f = spawn(fn() => 1);
await($f);
try {
    $f->finally(function () { throw new DomainException("immediate"); });
    echo "no throw\n";
} catch (DomainException $e) {
    echo "finally() threw: ", $e->getMessage(), "\n";
}
var_dump(await($f));

// Nobody handles it: the script ends with the handler's error, which runs right after the
// coroutine completed, before main resumes with its result.
$g = spawn(fn() => "g");
$g->finally(function () { throw new RuntimeException("unhandled from a handler"); });
var_dump(await($g));
delay(5);
echo "not reached\n";
?>
--EXPECTF--
handler 1: same coroutine true, completed true, runs in another coroutine true
int(1)
await returned before the handlers finished
handler 1 resumed after a delay
handler 2 still runs
scope handler: Async\CompositeException: Multiple exceptions in Coroutine finally handlers
 - RuntimeException: from handler 1
 - LogicException: from handler 3
scope handler: RuntimeException: handler
await: LogicException: body, previous: NULL
finally() threw: immediate
int(1)

Fatal error: Uncaught RuntimeException: unhandled from a handler in %s:%d
Stack trace:
#0 [internal function]: {closure%S}(Object(Async\Coroutine))
#1 {main}
  thrown in %s on line %d
