--TEST--
TaskGroup: close() lets queued and running tasks finish; awaitCompletion() needs close() first and never throws task errors; finally() runs when closed and done, at once if already
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\TaskGroup;
use function Async\{delay, spawn, await};

$g = new TaskGroup(1);
$g->finally(function ($group) use (&$g) { echo "finally 1: same group ", var_export($group === $g, true), ", finished ", var_export($group->isFinished(), true), "\n"; });
$g->finally(function () { echo "finally 2\n"; });
$g->spawn(function () { delay(5); echo "task 1\n"; });
$g->spawn(function () { echo "task 2 (was queued)\n"; throw new RuntimeException("ignored by awaitCompletion"); });

try { $g->awaitCompletion(); } catch (Async\AsyncException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
$g->close();
var_dump($g->isClosed(), $g->isFinished());
$g->awaitCompletion(); // no exception although a task failed
echo "completed\n";
delay(1); // the finally handlers run in a coroutine of their own
var_dump($g->isFinished());
$g->awaitCompletion(); // already complete: returns at once
$g->finally(function ($group) { echo "finally added late: runs at once\n"; });
echo "after late finally\n";
$g->suppressErrors();


// A task cannot wait for its own group: it would wait for itself.
$self = new TaskGroup();
$self->spawn(function () use ($self) {
    $self->close();
    try { $self->awaitCompletion(); } catch (Async\AsyncException $x) { echo get_class($x), ": ", $x->getMessage(), "\n"; }
});
delay(5);
var_dump($self->isFinished());

// Several waiters, in coroutines and at top level.
$m = new TaskGroup();
$m->spawn(fn() => delay(10));
$m->close();
$w = [];
for ($i = 0; $i < 3; $i++) { $w[] = spawn(function () use ($m, $i) { $m->awaitCompletion(); echo "waiter $i\n"; }); }
$m->awaitCompletion();
echo "main waiter\n";
foreach ($w as $c) await($c);

// An empty group completes when closed.
$empty = new TaskGroup();
$empty->finally(function () { echo "empty group finally\n"; });
$empty->close();
$empty->awaitCompletion();
delay(1);

// A finally handler may itself throw: the error is reported like any coroutine's (the program
// ends: it is thrown into main's next wait). One added after completion throws to its caller.
$e = new TaskGroup();
$e->finally(function () { throw new LogicException("from finally"); });
$e->close();
try { $e->finally(function () { throw new LogicException("thrown to the caller"); }); } catch (LogicException $x) { echo "caught: ", $x->getMessage(), "\n"; }
delay(1);
echo "not reached\n";
?>
--EXPECTF--
Async\AsyncException: TaskGroup must be closed before calling awaitCompletion()
bool(true)
bool(false)
task 1
task 2 (was queued)
completed
finally 1: same group true, finished true
finally 2
bool(true)
finally added late: runs at once
after late finally
Async\AsyncException: Cannot await completion of a TaskGroup from a coroutine that belongs to it
bool(true)
main waiter
waiter 0
waiter 1
waiter 2
empty group finally
caught: thrown to the caller

Fatal error: Uncaught LogicException: from finally in %s:%d
%A
