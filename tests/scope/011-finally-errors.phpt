--TEST--
Scope: finally handler errors are not lost and never thrown by dispose(): they go to the scope's exception handler (one as itself, several as a CompositeException in order), else up the tree; nobody's: the script ends with them
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{delay, suspend};

function report($scope, $co, Throwable $e): void
{
    echo "handler of ", $scope->name ?? '?', ": ", get_class($e), ": ", $e->getMessage(), "\n";
    if ($e instanceof Async\CompositeException) {
        foreach ($e->getExceptions() as $x) {
            echo " - ", $x->getMessage(), "\n";
        }
    }
}

$s = new Scope();
$s->setExceptionHandler(function ($scope, $co, $e) { echo "s: "; report($scope, $co, $e); });
$s->finally(function () { throw new Exception("f1"); });
$s->finally(function () { delay(1); echo "second still runs (and may suspend)\n"; });
$s->finally(function () { throw new Exception("f2"); });
$s->dispose();
echo "dispose() returned without throwing\n";
delay(5);

$one = new Scope();
$one->setExceptionHandler(function ($scope, $co, $e) { echo "one: "; report($scope, $co, $e); });
$one->finally(function () { throw new LogicException("only one"); });
$one->dispose();
suspend();

// A child scope without a handler: its parent's handler gets the error.
$parent = new Scope();
$parent->setChildScopeExceptionHandler(function ($scope, $co, $e) { echo "parent (child scope error): "; report($scope, $co, $e); });
$child = Scope::inherit($parent);
$child->finally(function () { throw new DomainException("from the child's finally"); });
$child->dispose();
suspend();

// Disposed when its last coroutine ends and nobody handles the error: the script ends with it.
$a = new Scope();
$a->finally(function () { throw new RuntimeException("async finally"); });
$a->spawn(fn() => delay(1));
$a->disposeSafely();
delay(20);
echo "not reached\n";
?>
--EXPECTF--
dispose() returned without throwing
second still runs (and may suspend)
s: handler of ?: Async\CompositeException: Multiple exceptions in Scope finally handlers
 - f1
 - f2
one: handler of ?: LogicException: only one
parent (child scope error): handler of ?: DomainException: from the child's finally

Fatal error: Uncaught RuntimeException: async finally in %s:%d
Stack trace:
#0 %a
  thrown in %s on line %d
