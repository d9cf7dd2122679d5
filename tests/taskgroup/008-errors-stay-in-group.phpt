--TEST--
TaskGroup: task errors stay in the group (no unhandled-error shutdown); getErrors()/suppressErrors()/iteration observe them; a destroyed group reports the unobserved ones to its scope's exception handler
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{TaskGroup, Scope, CompositeException, Coroutine};
use function Async\{delay, spawn, await, suspend};

// A failing task does not disturb anyone else.
$g = new TaskGroup();
$g->spawn(function () { throw new RuntimeException("kept"); });
$other = spawn(function () { delay(10); return "other coroutine fine"; });
var_dump(await($other));
var_dump(count($g->getErrors()));
unset($g); // observed by getErrors(): nothing reported

$s = new TaskGroup();
$s->spawn(function () { throw new RuntimeException("suppressed"); });
delay(1);
$s->suppressErrors();
unset($s);

$it = new TaskGroup();
$it->spawn(function () { throw new RuntimeException("iterated"); });
$it->close();
foreach ($it as $k => [$r, $e]) { echo "$k: ", $e->getMessage(), "\n"; }
unset($it);

// Cancellations are never "unhandled".
$c = new TaskGroup();
$c->spawn(fn() => delay(1000));
delay(1);
$c->cancel();
$c->awaitCompletion();
unset($c);

// Unobserved errors: one CompositeException to the exception path of the group's scope.
$scope = new Scope();
$scope->setChildScopeExceptionHandler(function (Scope $sc, Coroutine $co, Throwable $e) use ($scope) {
    echo "handler: ", get_class($e), ": ", $e->getMessage(), " (scope ok: ", var_export($sc === $scope, true), ")\n";
    foreach ($e->getExceptions() as $k => $ex) { echo "  $k: ", $ex->getMessage(), "\n"; }
});
$d = new TaskGroup(scope: $scope);
$d->spawnWithKey("x", function () { throw new LogicException("lost 1"); });
$d->spawnWithKey("y", function () { suspend(); throw new LogicException("lost 2"); });
$d->spawnWithKey("z", fn() => "fine");
delay(5);
unset($d);
var_dump($scope->isCancelled());
echo "end\n";
?>
--EXPECT--
string(20) "other coroutine fine"
int(1)
0: iterated
handler: Async\CompositeException: TaskGroup destroyed with 2 unhandled task errors (scope ok: true)
  x: lost 1
  y: lost 2
bool(false)
end
