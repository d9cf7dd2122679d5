--TEST--
Scope: exception handlers — own handler, child-scope handler of an ancestor, fail-together, a throwing handler
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay};

// Own handler absorbs the error: siblings go on, the scope is not cancelled.
$s = new Scope();
$s->setExceptionHandler(function (Scope $scope, Async\Coroutine $co, Throwable $e) use ($s) {
    echo "own: ", $e->getMessage(), " same scope: ", var_export($scope === $s, true), "\n";
});
$sib = $s->spawn(function () { delay(10); return "sibling done"; });
$s->spawn(function () { throw new RuntimeException("e1"); });
var_dump(await($sib), $s->isCancelled());

// No handler in the child: it is cancelled (fail-together), the error goes to the parent's
// child-scope handler.
$p = new Scope();
$p->setChildScopeExceptionHandler(function ($scope, $co, $e) use ($p) {
    echo "from child: ", $e->getMessage(), " parent: ", var_export($scope === $p, true), "\n";
});
$child = Scope::inherit($p);
$victim = $child->spawn(function () { delay(5000); });
$child->spawn(function () { delay(1); throw new LogicException("e2"); });
try { await($victim); } catch (Async\AsyncCancellation $e) { echo "victim: ", $e->getMessage(), "\n"; }
var_dump($child->isCancelled(), $p->isCancelled());

// A child-scope handler does not see errors of the scope's own coroutines.
$q = new Scope();
$q->setChildScopeExceptionHandler(function () { echo "wrong handler\n"; });
$q->setExceptionHandler(function ($s, $c, $e) { echo "own handler: ", $e->getMessage(), "\n"; });
$q->spawn(function () { delay(1); throw new Exception("e3"); });
delay(10);

// A handler that throws replaces the error, which goes on up the tree.
$top = new Scope();
$top->setChildScopeExceptionHandler(function ($s, $c, $e) { echo "top got: ", get_class($e), " ", $e->getMessage(), "\n"; });
$mid = Scope::inherit($top);
$mid->setExceptionHandler(function ($s, $c, $e) { throw new DomainException("rethrown from handler"); });
$mid->spawn(function () { throw new Exception("e4"); });
delay(5);
var_dump($mid->isCancelled());
?>
--EXPECT--
own: e1 same scope: true
string(12) "sibling done"
bool(false)
from child: e2 parent: true
victim: Scope was cancelled
bool(true)
bool(false)
own handler: e3
top got: DomainException rethrown from handler
bool(true)
