--TEST--
TaskGroup: a full queue suspends spawn() until a queued task starts; default queueLimit is 2*concurrency; parked producers fail when the group closes
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\TaskGroup;
use function Async\{delay, spawn, await, suspend};

// concurrency 2, queueLimit 3: the 6th spawn() waits for a free slot.
$log = [];
$finished = 0;
$g = new TaskGroup(2, 3);
$release = false;
$task = function ($i) use (&$release, &$finished) {
    while (!$release) { delay(1); }
    delay(1 + $i % 3);
    $finished++;
    return $i;
};
$violations = 0;
$producer = spawn(function () use ($g, $task, &$log, &$finished, &$violations) {
    for ($i = 0; $i < 20; $i++) {
        $g->spawn($task, $i);
        // At most 2 running and 3 queued: spawn $i only returns once $i - 4 tasks have finished.
        if ($finished < $i - 4) { $violations++; }
        $log[] = "spawned $i (tasks=" . count($g) . ")";
    }
    $log[] = "producer done";
});
delay(20);
// 2 running + 3 queued: the producer is parked on its 6th spawn.
echo implode("\n", $log), "\n--- released\n";
$release = true;
await($producer);
echo "violations: $violations, last: ", end($log), "\n";
$g->close();
$g->awaitCompletion();
var_dump($g->getResults() === range(0, 19));

// Default queue limit: 2 * concurrency. With concurrency 1 the 4th spawn() waits.
$d = new TaskGroup(1);
$stop = false;
$n = 0;
$p = spawn(function () use ($d, &$stop, &$n) {
    for ($i = 0; $i < 5; $i++) {
        $d->spawn(function () use (&$stop) { while (!$stop) delay(1); });
        $n++;
    }
});
delay(10);
echo "default limit: spawned $n\n";
$stop = true;
await($p);
echo "after: spawned $n\n";

// A producer parked on a full queue fails when the group closes or is cancelled meanwhile.
foreach (['close', 'cancel', 'dispose'] as $how) {
    $c = new TaskGroup(1, 1);
    $c->spawn(fn() => delay(1000));
    $c->spawn(fn() => 1);
    $p = spawn(function () use ($c) {
        try {
            $c->spawn(fn() => "never");
            echo "not reached\n";
        } catch (Async\AsyncException $e) {
            echo "$e\n" === "" ? "" : get_class($e) . ": " . $e->getMessage() . "\n";
        }
    });
    delay(5);
    $c->$how();
    await($p);
    if ($how === 'close') { $c->cancel(); }
    $c->awaitCompletion();
}

// At top level the main flow is parked the same way.
$t = new TaskGroup(1, 1);
$t->spawn(fn() => delay(10));
$t->spawn(fn() => 2);
$start = hrtime(true);
$t->spawn(fn() => 3); // waits until the first task ends and the second starts
echo "top level waited: ", (hrtime(true) - $start) >= 5e6 ? "yes" : "no", ", tasks: ", count($t), "\n";
$t->close();
$t->awaitCompletion();
var_dump($t->getResults());
?>
--EXPECT--
spawned 0 (tasks=1)
spawned 1 (tasks=2)
spawned 2 (tasks=3)
spawned 3 (tasks=4)
spawned 4 (tasks=5)
--- released
violations: 0, last: producer done
bool(true)
default limit: spawned 3
after: spawned 5
Async\AsyncException: Cannot spawn tasks on a closed TaskGroup
Async\AsyncException: Cannot spawn tasks on a closed TaskGroup
Async\AsyncException: Cannot spawn tasks on a closed TaskGroup
top level waited: yes, tasks: 3
array(3) {
  [0]=>
  NULL
  [1]=>
  int(2)
  [2]=>
  int(3)
}
