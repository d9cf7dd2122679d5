--TEST--
iterate(): workers are added only while the earlier ones are suspended in their callback: a callback that never suspends runs every element in one worker, in order
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{iterate, current_coroutine, suspend};

/* Names the workers W1, W2, ... in the order they first run a callback. */
function worker(array &$names): string
{
    $id = current_coroutine()->getId();
    return $names[$id] ??= 'W' . (count($names) + 1);
}

/* Never suspends: one worker, in order, whatever the limit. */
foreach ([0, 1, 3] as $limit) {
    $names = [];
    $log = [];
    iterate(range(1, 6), function ($v) use (&$names, &$log) {
        $log[] = worker($names) . ":$v";
    }, $limit);
    echo "concurrency $limit: ", implode(' ', $log), "\n";
}

/* Only the first callback suspends (until the last element was handled): while it is suspended a
 * second worker is added, which takes every other element; no third one is needed. */
$names = [];
$log = [];
$lastDone = false;
iterate(range(1, 5), function ($v) use (&$names, &$log, &$lastDone) {
    $w = worker($names);
    $log[] = "$w:$v";
    if ($v === 1) {
        while (!$lastDone) {
            suspend();
        }
        $log[] = "$w:1 resumed";
    }
    if ($v === 5) {
        $lastDone = true;
    }
});
echo implode(' ', $log), "\n";
?>
--EXPECT--
concurrency 0: W1:1 W1:2 W1:3 W1:4 W1:5 W1:6
concurrency 1: W1:1 W1:2 W1:3 W1:4 W1:5 W1:6
concurrency 3: W1:1 W1:2 W1:3 W1:4 W1:5 W1:6
W1:1 W2:2 W2:3 W2:4 W2:5 W1:1 resumed
