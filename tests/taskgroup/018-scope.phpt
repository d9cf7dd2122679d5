--TEST--
TaskGroup: tasks run in the group's own child scope (of the given Scope or the current one); a cancelled parent scope cancels and closes the group
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{TaskGroup, Scope, AsyncCancellation};
use function Async\{delay, spawn, await, current_context};

// The group's scope is a child of the given scope: cancelling that scope reaches the tasks.
$parent = new Scope();
$g = new TaskGroup(1, scope: $parent);
echo "child scopes of the parent: ", count($parent->getChildScopes()), "\n";
$g->spawnWithKey("running", function () { try { delay(1000); } catch (AsyncCancellation $e) { echo "task: ", $e->getMessage(), "\n"; throw $e; } });
$g->spawnWithKey("queued", function () { echo "queued task never runs\n"; });
delay(1);
$parent->cancel();
var_dump($g->isClosed());
$g->awaitCompletion();
foreach ($g->getErrors() as $k => $e) { echo "$k: ", $e->getMessage(), "\n"; }
try { $g->spawn(fn() => 1); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }

// Context lookups from a task go through the group's scope to the scope it was created in.
$s2 = new Scope();
$c = $s2->spawn(function () {
    current_context()->set("who", "outer scope");
    $inner = new TaskGroup();
    $inner->spawn(fn() => current_context()->find("who"));
    $inner->close();
    $inner->awaitCompletion();
    return $inner->getResults();
});
var_dump(await($c));

// Disposing the group disposes its scope; the parent scope is left alone.
$p2 = new Scope();
$d = new TaskGroup(scope: $p2);
$d->spawn(fn() => delay(1000));
delay(1);
$d->dispose();
$d->awaitCompletion();
var_dump($p2->isCancelled(), $p2->isClosed());
$p2->spawn(fn() => print("parent scope still spawns\n"));
delay(1);
?>
--EXPECT--
child scopes of the parent: 1
bool(true)
task: Scope was cancelled
running: Scope was cancelled
queued: Scope was cancelled
Cannot spawn tasks on a closed TaskGroup
array(1) {
  [0]=>
  string(11) "outer scope"
}
bool(false)
bool(false)
parent scope still spawns
