<?php
/*
 * taskgroup: cost of running tasks through an Async\TaskGroup with a concurrency limit.
 *
 *   subject : a TaskGroup(100) (default queue limit 200): spawn() 10,000 tasks, close(),
 *             awaitCompletion(), getResults(). The producer is parked whenever the queue is full
 *             and woken as slots free up, so this measures the queue, the limit and the parking.
 *   baseline: the same 10,000 task bodies as plain coroutines: spawn() them all, then await()
 *             each (no limit, no queue), in the same process.
 *
 * Each task body is `fn(int $i) => $i`: the figures are the runtime's overhead per task. Prints
 * µs per task of each (median of BENCH_REPS interleaved repetitions) and the ratio
 * group/plain. Goal: ratio <= 1.5.
 *
 * Usage: php -n -d extension=modules/async.so bench/taskgroup.php [tasks=10000] [concurrency=100]
 */

declare(strict_types=1);

require __DIR__ . '/common.php';

use Async\TaskGroup;
use function Async\await;
use function Async\spawn;

const GOAL_RATIO = 1.5;

ini_set('memory_limit', '-1');

$n = (int) ($argv[1] ?? bench_scale(10_000));
$limit = (int) ($argv[2] ?? 100);
$reps = bench_reps();

bench_header("taskgroup: TaskGroup($limit) of $n tasks vs $n plain spawn()+await()");

function run_group(int $n, int $limit): int
{
    $fn = static function (int $i): int {
        return $i;
    };
    $t0 = hrtime(true);
    $g = new TaskGroup($limit);
    for ($i = 0; $i < $n; $i++) {
        $g->spawn($fn, $i);
    }
    $g->close();
    $g->awaitCompletion();
    $results = $g->getResults();
    $ns = hrtime(true) - $t0;
    bench_check(count($results) === $n && array_sum($results) === intdiv($n * ($n - 1), 2),
        'TaskGroup results: ' . count($results) . ' summing to ' . array_sum($results));
    return $ns;
}

function run_plain(int $n): int
{
    $fn = static function (int $i): int {
        return $i;
    };
    $t0 = hrtime(true);
    $handles = [];
    for ($i = 0; $i < $n; $i++) {
        $handles[] = spawn($fn, $i);
    }
    $sum = 0;
    foreach ($handles as $h) {
        $sum += await($h);
    }
    $ns = hrtime(true) - $t0;
    bench_check($sum === intdiv($n * ($n - 1), 2), "spawn+await results summed to $sum");
    return $ns;
}

// Warm-up: launches the scheduler, fills the context pool, warms the allocator for both.
run_group(min($n, 1000), $limit);
run_plain(min($n, 1000));

$grp = $pln = $ratios = [];
for ($r = 0; $r < $reps; $r++) {
    if ($r % 2 === 0) {
        $g = run_group($n, $limit);
        $p = run_plain($n);
    } else {
        $p = run_plain($n);
        $g = run_group($n, $limit);
    }
    $grp[] = $g / $n / 1000;
    $pln[] = $p / $n / 1000;
    $ratios[] = $g / $p;
    printf("  rep %d: TaskGroup %.3f µs/task, plain %.3f µs/task, ratio %.3f\n", $r + 1, end($grp), end($pln), end($ratios));
}

$mg = bench_median($grp);
$mp = bench_median($pln);
$mr = bench_median($ratios);
printf("RESULT taskgroup TaskGroup(%d): %.3f µs/task (median; spread %s)\n", $limit, $mg, bench_spread($grp));
printf("RESULT taskgroup plain spawn+await baseline: %.3f µs/task (median; spread %s)\n", $mp, bench_spread($pln));
printf("RESULT taskgroup ratio group/plain: %.3f (median of per-rep ratios; spread %s)\n", $mr, bench_spread($ratios));
bench_goal('taskgroup ratio <= ' . GOAL_RATIO, $mr <= GOAL_RATIO, sprintf('ratio %.3f', $mr));
