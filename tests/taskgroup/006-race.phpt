--TEST--
TaskGroup::race(): the first task to settle, value or error; already settled at once; empty group throws
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\TaskGroup;
use function Async\{delay, await};

$g = new TaskGroup();
$g->spawnWithKey("slow", function () { delay(30); return "slow"; });
$g->spawnWithKey("fast", function () { delay(5); return "fast"; });
$f1 = $g->race();
$f2 = $g->race(); // every pending race() gets the same first task
var_dump($f1->isCompleted(), await($f1), await($f2));
// Settled tasks are there: a later race() completes at once with the first one.
$f3 = $g->race();
var_dump($f3->isCompleted(), await($f3));
echo "tasks still there: ", count($g), "\n";

// The first to settle is an error: the future is rejected with it.
$e = new TaskGroup();
$e->spawn(function () { delay(20); return "late value"; });
$e->spawn(function () { delay(2); throw new DomainException("early failure"); });
try { await($e->race()); } catch (DomainException $ex) { echo "rejected: ", $ex->getMessage(), "\n"; }
unset($e); // race() delivered the error: no report

// Empty groups cannot race.
try { (new TaskGroup())->race(); } catch (Async\AsyncException $ex) { echo get_class($ex), ": ", $ex->getMessage(), "\n"; }

// A race over queued tasks waits for one to start and settle.
$q = new TaskGroup(1);
$q->spawn(function () { delay(10); return "first queued"; });
$q->spawn(fn() => "second queued");
var_dump(await($q->race()));
?>
--EXPECT--
bool(false)
string(4) "fast"
string(4) "fast"
bool(true)
string(4) "fast"
tasks still there: 2
rejected: early failure
Async\AsyncException: race() called on an empty TaskGroup
string(12) "first queued"
