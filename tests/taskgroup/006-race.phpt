--TEST--
TaskGroup::race(): the first task to settle, value or error; already settled at once; empty group throws
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/gates.inc';
use Async\TaskGroup;
use function Async\{delay, await, spawn};

$gates = new Gates();
$g = new TaskGroup();
$g->spawnWithKey("slow", function () use ($gates) { $gates->wait("slow"); return "slow"; });
$g->spawnWithKey("fast", function () use ($gates) { $gates->wait("fast"); return "fast"; });
$f1 = $g->race();
$f2 = $g->race(); // every pending race() gets the same first task
var_dump($f1->isCompleted());
$gates->open("fast");
var_dump(await($f1), await($f2));
$gates->release("slow");
// Settled tasks are there: a later race() completes at once with the first one.
$f3 = $g->race();
var_dump($f3->isCompleted(), await($f3));
echo "tasks still there: ", count($g), "\n";

// The first to settle is an error: the future is rejected with it.
$e = new TaskGroup();
$e->spawn(function () use ($gates) { $gates->wait("late value"); return "late value"; });
$e->spawn(function () use ($gates) { $gates->wait("early failure"); throw new DomainException("early failure"); });
$r = $e->race();
$gates->release("early failure", "late value");
try { await($r); } catch (DomainException $ex) { echo "rejected: ", $ex->getMessage(), "\n"; }
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
Async\AsyncException: Cannot race on an empty TaskGroup
string(12) "first queued"
