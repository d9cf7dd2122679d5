--TEST--
iterate(): the concurrency limit bounds the number of workers; it is a bound, not a number of workers to start
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{iterate, current_coroutine, suspend};

/* Every callback suspends once: with a limit of 3, three workers take turns on 8 elements. */
$byWorker = [];
$running = $most = 0;
iterate(range(1, 8), function ($v) use (&$byWorker, &$running, &$most) {
    $most = max($most, ++$running);
    $byWorker[current_coroutine()->getId()][] = $v;
    suspend();
    $running--;
}, 3);
echo count($byWorker), " workers, at most $most at once, ", array_sum(array_map('count', $byWorker)), " elements\n";

/* Only elements 1 and 2 suspend (for a while): a limit of 5 still needs only 3 workers. */
$byWorker = [];
iterate(range(1, 8), function ($v) use (&$byWorker) {
    $byWorker[current_coroutine()->getId()][] = $v;
    if ($v <= 2) {
        for ($i = 0; $i < 20; $i++) {
            suspend();
        }
    }
}, 5);
echo count($byWorker), " workers with a limit of 5: ",
    implode(' | ', array_map(fn($l) => implode(',', $l), array_values($byWorker))), "\n";
?>
--EXPECT--
3 workers, at most 3 at once, 8 elements
3 workers with a limit of 5: 1 | 2 | 3,4,5,6,7,8
