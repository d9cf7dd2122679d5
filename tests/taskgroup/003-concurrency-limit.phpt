--TEST--
TaskGroup: the concurrency limit is observed; queued tasks are callables, their coroutines are created when a slot frees up, in FIFO order
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\TaskGroup;
use function Async\{delay, suspend, get_coroutines};

$running = 0; $max = 0; $order = [];
$task = function (int $i, int $ms) use (&$running, &$max, &$order) {
    $running++;
    $max = max($max, $running);
    $order[] = $i;
    delay($ms);
    $running--;
    return $i;
};

$g = new TaskGroup(3, 0); // queueLimit 0: unbounded, spawn() never waits
$before = count(get_coroutines());
for ($i = 0; $i < 12; $i++) {
    $g->spawn($task, $i, 1 + ($i * 7) % 5);
}
// Only three coroutines exist so far: the rest are queued callables.
echo "coroutines created: ", count(get_coroutines()) - $before, ", tasks: ", count($g), "\n";
suspend();
echo "running after the first tick: $running\n";
$g->close();
$g->awaitCompletion();
echo "max simultaneous: $max\n";
echo "start order: ", implode(",", $order), "\n";
var_dump(array_keys($g->getResults()) === range(0, 11), $g->getResults() === range(0, 11));

// Unlimited: everything starts at once.
$running = 0; $max = 0;
$u = new TaskGroup();
for ($i = 0; $i < 20; $i++) { $u->spawn($task, $i, 5); }
echo "unlimited coroutines created: ", count(get_coroutines()) - $before, "\n";
$u->close();
$u->awaitCompletion();
echo "unlimited max: $max\n";

// Concurrency 1 runs strictly one after the other, including tasks spawned from tasks.
$log = [];
$one = new TaskGroup(1);
$one->spawn(function () use ($one, &$log) {
    $log[] = "a-start";
    $one->spawn(function () use (&$log) { $log[] = "c"; });
    delay(5);
    $log[] = "a-end";
});
$one->spawn(function () use (&$log) { $log[] = "b"; });
delay(1);
$one->close();
$one->awaitCompletion();
echo implode(" ", $log), "\n";
?>
--EXPECT--
coroutines created: 3, tasks: 12
running after the first tick: 3
max simultaneous: 3
start order: 0,1,2,3,4,5,6,7,8,9,10,11
bool(true)
bool(true)
unlimited coroutines created: 20
unlimited max: 20
a-start a-end b c
