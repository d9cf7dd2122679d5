--TEST--
TaskGroup::all(): a Future of the results by key; covers the tasks present at the call; immediate when all settled; errors reject with CompositeException; ignoreErrors
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{TaskGroup, Future, CompositeException};
use function Async\{delay, await};

$g = new TaskGroup();
$g->spawnWithKey("slow", function () { delay(20); return "s"; });
$g->spawnWithKey("fast", function () { delay(1); return "f"; });
$g->spawn(fn() => 42);
$all = $g->all();
var_dump($all instanceof Future, $all->isCompleted());
// Spawned after the call: not covered, and not waited for (it only ends when told to).
$release = false;
$g->spawnWithKey("late", function () use (&$release) { while (!$release) { delay(1); } return "late"; });
var_dump(await($all));
echo "late task still running: ", $g->isFinished() ? "no" : "yes", "\n";
$release = true;

// Everything settled: the future is already completed.
$done = new TaskGroup();
$done->spawn(fn() => 1);
$done->spawn(fn() => 2);
delay(1);
$f = $done->all();
var_dump($f->isCompleted(), $f->await());

// Empty group: resolves at once with [].
$empty = (new TaskGroup())->all();
var_dump($empty->isCompleted(), await($empty));

// Errors: a CompositeException with the errors by key; ignoreErrors gives the results only.
$e = new TaskGroup();
$e->spawnWithKey("ok", fn() => "fine");
$e->spawnWithKey("bad1", function () { delay(2); throw new RuntimeException("first"); });
$e->spawnWithKey("bad2", function () { throw new LogicException("second"); });
$rejected = $e->all();
$ignored = $e->all(true);
try {
    await($rejected);
} catch (CompositeException $ce) {
    echo get_class($ce), ": ", $ce->getMessage(), "\n";
    foreach ($ce->getExceptions() as $k => $ex) { echo "  $k: ", get_class($ex), ": ", $ex->getMessage(), "\n"; }
}
var_dump(await($ignored));
// all() observed the errors: destroying the group reports nothing.
unset($e);

// Awaiting the same future twice replays it.
$r = new TaskGroup();
$r->spawn(fn() => "x");
$rf = $r->all();
var_dump(await($rf), await($rf));

// all() of a group whose tasks are queued behind a concurrency limit waits for them all.
$q = new TaskGroup(1);
for ($i = 0; $i < 4; $i++) { $q->spawn(function ($i) { delay(1); return $i * $i; }, $i); }
var_dump(await($q->all()));
echo "end\n";
?>
--EXPECT--
bool(true)
bool(false)
array(3) {
  ["slow"]=>
  string(1) "s"
  ["fast"]=>
  string(1) "f"
  [0]=>
  int(42)
}
late task still running: yes
bool(true)
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
bool(true)
array(0) {
}
Async\CompositeException: 2 of 3 tasks failed
  bad1: RuntimeException: first
  bad2: LogicException: second
array(1) {
  ["ok"]=>
  string(4) "fine"
}
array(1) {
  [0]=>
  string(1) "x"
}
array(1) {
  [0]=>
  string(1) "x"
}
array(4) {
  [0]=>
  int(0)
  [1]=>
  int(1)
  [2]=>
  int(4)
  [3]=>
  int(9)
}
end
