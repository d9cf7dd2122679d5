--TEST--
TaskGroup destroyed while an exception unwinds the stack: its unobserved errors still reach the scope's handler, and the exception goes on
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{TaskGroup, Scope};
$scope = new Scope();
$scope->setChildScopeExceptionHandler(function ($s, $c, $e) { echo "handler: ", $e->getMessage(), "\n"; });
function f($scope) {
    $g = new TaskGroup(scope: $scope);
    $g->spawn(fn() => throw new RuntimeException("task failed"));
    $g->spawn(fn() => Async\delay(1000));
    Async\delay(1);
    throw new LogicException("unwinding");
}
try { f($scope); } catch (LogicException $e) { echo "caught: ", $e->getMessage(), "\n"; }
echo "end\n";
?>
--EXPECT--
handler: TaskGroup destroyed with 1 unhandled task error
caught: unwinding
end
