<?php
/*
 * await_all: one wait over 10,000 coroutines, against awaiting the same coroutines one by one.
 *
 *   subject : spawn N coroutines, then [$results, $errors] = await_all($coroutines)
 *   baseline: spawn N coroutines, then await($c) for each, in a loop       (same process)
 *
 * Both sides spawn the same N coroutines running the same body; the figure is the time per
 * task of the whole thing (spawn + run + collect the results). Two bodies:
 *   (a) returns at once: each coroutine runs to completion in the first scheduler batch;
 *   (b) suspends once first (Async\suspend()), so the wait really parks while they run.
 * Prints µs per task (median of BENCH_REPS interleaved repetitions) and the ratio.
 * Goal (a): await_all / spawn+await <= 1.5.
 *
 * Usage: php -n -d extension=modules/async.so bench/await_all.php [coroutines=10000]
 */

declare(strict_types=1);

require __DIR__ . '/common.php';

use function Async\await;
use function Async\await_all;
use function Async\spawn;
use function Async\suspend;

const GOAL_RATIO = 1.5;

ini_set('memory_limit', '-1');

$n = (int) ($argv[1] ?? bench_scale(10_000));
$reps = bench_reps();

bench_header("await_all: await_all() over $n coroutines vs spawn + await() each, same process");

function body(bool $suspends): Closure
{
    return $suspends
        ? static function (int $i): int { suspend(); return $i; }
        : static function (int $i): int { return $i; };
}

function run_await_all(int $n, bool $suspends): int
{
    $fn = body($suspends);
    $t0 = hrtime(true);
    $coroutines = [];
    for ($i = 0; $i < $n; $i++) {
        $coroutines[] = spawn($fn, $i);
    }
    [$results, $errors] = await_all($coroutines);
    $ns = hrtime(true) - $t0;
    bench_check(count($results) === $n && $errors === [] && array_sum($results) === intdiv($n * ($n - 1), 2)
        && array_key_last($results) === $n - 1, 'await_all results');
    return $ns;
}

function run_each(int $n, bool $suspends): int
{
    $fn = body($suspends);
    $t0 = hrtime(true);
    $coroutines = [];
    for ($i = 0; $i < $n; $i++) {
        $coroutines[] = spawn($fn, $i);
    }
    $results = [];
    foreach ($coroutines as $k => $c) {
        $results[$k] = await($c);
    }
    $ns = hrtime(true) - $t0;
    bench_check(count($results) === $n && array_sum($results) === intdiv($n * ($n - 1), 2), 'spawn+await results');
    return $ns;
}

$summary = [];
foreach (['a' => false, 'b' => true] as $label => $suspends) {
    // Warm-up: launches the scheduler, fills the context pool, warms the allocator for both.
    run_await_all($n, $suspends);
    run_each($n, $suspends);

    $all = $each = $ratios = [];
    for ($r = 0; $r < $reps; $r++) {
        if ($r % 2 === 0) {
            $a = run_await_all($n, $suspends);
            $e = run_each($n, $suspends);
        } else {
            $e = run_each($n, $suspends);
            $a = run_await_all($n, $suspends);
        }
        $all[] = $a / $n / 1000;
        $each[] = $e / $n / 1000;
        $ratios[] = $a / $e;
        printf("  (%s) rep %d: await_all %.3f µs/task, spawn+await %.3f µs/task, ratio %.3f\n",
            $label, $r + 1, end($all), end($each), end($ratios));
    }
    $body = $suspends ? 'body suspends once' : 'body returns at once';
    printf("RESULT await_all (%s, %s): %.3f µs/task (median; spread %s)\n", $label, $body, bench_median($all), bench_spread($all));
    printf("RESULT await_all (%s) baseline spawn+await each: %.3f µs/task (median; spread %s)\n", $label, bench_median($each), bench_spread($each));
    printf("RESULT await_all (%s) ratio await_all/spawn+await: %.3f (median of per-rep ratios; spread %s)\n",
        $label, bench_median($ratios), bench_spread($ratios));
    $summary[$label] = bench_median($ratios);
}
bench_goal('await_all (a) ratio <= ' . GOAL_RATIO, $summary['a'] <= GOAL_RATIO, sprintf('ratio %.3f', $summary['a']));
