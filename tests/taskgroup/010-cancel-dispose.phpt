--TEST--
TaskGroup: cancel() closes, queued tasks never start, running ones are cancelled (default or given cancellation); dispose() makes the group "completed"
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{TaskGroup, AsyncCancellation};
use function Async\{delay, spawn};

$ran = [];
$g = new TaskGroup(2);
for ($i = 0; $i < 5; $i++) {
    $g->spawn(function ($i) use (&$ran) {
        $ran[] = $i;
        try { delay(1000); } catch (AsyncCancellation $e) { echo "task $i: ", $e->getMessage(), "\n"; throw $e; }
    }, $i);
}
delay(5);
var_dump($g->isClosed(), $g->isFinished(), count($g));
$g->cancel();
var_dump($g->isClosed());
$g->awaitCompletion();
var_dump($g->isFinished(), $ran);
foreach ($g->getErrors() as $k => $e) { echo "$k: ", get_class($e), ": ", $e->getMessage(), "\n"; }
try { $g->spawn(fn() => 1); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }
$g->cancel(); // idempotent
delay(1);

// A given cancellation is what the tasks get.
$h = new TaskGroup();
$h->spawn(function () { try { delay(1000); } catch (AsyncCancellation $e) { echo "custom: ", get_class($e), ": ", $e->getMessage(), "\n"; } return "survived"; });
// A task can spawn coroutines of its own: they belong to the group's scope and are cancelled too.
$h->spawn(function () {
    spawn(function () { try { delay(1000); } catch (AsyncCancellation $e) { echo "grandchild: ", $e->getMessage(), "\n"; } });
    delay(1000);
});
delay(1);
$h->cancel(new AsyncCancellation("stop now"));
$h->awaitCompletion();
var_dump($h->getResults()); // the task caught it and returned a value
try { $h->cancel(new Exception("not a cancellation")); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }

// Cancelling before anything ran: no task body runs at all. The group is not finished yet: the
// task completes as cancelled when the scheduler reaches it.
$n = new TaskGroup();
$n->spawn(function () { echo "never runs\n"; });
$n->cancel();
var_dump($n->isFinished(), count($n->getErrors()));
$n->awaitCompletion();
var_dump($n->isFinished(), count($n->getErrors()));
$ns = new Async\TaskSet();
$ns->spawn(function () { echo "never runs\n"; });
$ns->cancel();
var_dump($ns->isFinished());
$ns->awaitCompletion();
var_dump($ns->isFinished());

// dispose(): the same, and the group counts as completed afterwards.
$d = new TaskGroup(1);
$d->spawn(function () { try { delay(1000); } catch (AsyncCancellation $e) { echo "disposed task: ", $e->getMessage(), "\n"; throw $e; } });
$d->spawn(function () { echo "queued never runs\n"; });
delay(1);
$d->dispose();
$d->awaitCompletion();
try { $d->spawn(fn() => 1); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }
var_dump($d->isClosed(), $d->isFinished(), count($d->getErrors()));
$d->dispose();
echo "end\n";
?>
--EXPECT--
bool(false)
bool(false)
int(5)
bool(true)
task 0: TaskGroup was cancelled
task 1: TaskGroup was cancelled
bool(true)
array(2) {
  [0]=>
  int(0)
  [1]=>
  int(1)
}
0: Async\AsyncCancellation: TaskGroup was cancelled
1: Async\AsyncCancellation: TaskGroup was cancelled
2: Async\AsyncCancellation: TaskGroup was cancelled
3: Async\AsyncCancellation: TaskGroup was cancelled
4: Async\AsyncCancellation: TaskGroup was cancelled
Cannot spawn tasks on a closed TaskGroup
custom: Async\AsyncCancellation: stop now
grandchild: stop now
array(1) {
  [0]=>
  string(8) "survived"
}
Async\TaskGroup::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, Exception given
bool(false)
int(0)
bool(true)
int(1)
bool(false)
bool(true)
disposed task: TaskGroup was disposed
Cannot spawn tasks on a closed TaskGroup
bool(true)
bool(true)
int(2)
end
