<?php
/*
 * delay_10k: 10,000 concurrent coroutines each doing Async\delay(10); main awaits them all.
 *
 * A round = spawn 10k coroutines + await every one of them, wall time in ms.
 *   cold : the first round of a fresh process (every coroutine maps a new C context). Measured
 *          in BENCH_REPS fresh child processes started by this script with the same binary and
 *          flags, so the median is over real cold starts.
 *   warm : later rounds in this process. Run with -d async.context_pool_size=10000 so the 10k
 *          contexts of the previous round are parked and reused (bench/run.sh does).
 * Baselines printed with it:
 *   - the theoretical 10 ms (every delay runs concurrently);
 *   - the same 10k spawns + awaits with an empty body, cold and warm, measured in the same run
 *     (the runtime's own overhead, with no timer).
 * Goal: a warm round is all done within 60 ms.
 *
 * Checks: every coroutine completed, and each delay lasted at least 9 ms (libuv timers have
 * 1 ms resolution) — otherwise the figure would be meaningless and the script fails.
 *
 * Usage: php -n -d extension=modules/async.so -d async.context_pool_size=10000 bench/delay_10k.php [coroutines=10000]
 *        (internal: --cold=delay|empty runs one cold round and prints "ms=...")
 */

declare(strict_types=1);

require __DIR__ . '/common.php';

use function Async\await;
use function Async\delay;
use function Async\spawn;

const DELAY_MS = 10;
const GOAL_WARM_MS = 60.0;

// Spawned coroutine objects are currently never freed (see bench/history-2026.md, "Known
// issues"): a long run of rounds must not stop on memory_limit.
ini_set('memory_limit', '-1');

$cold = null;
$n = 10_000;
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--cold=(delay|empty)$/', $arg, $m)) {
        $cold = $m[1];
    } elseif (preg_match('/^\d+$/', $arg)) {
        $n = (int) $arg;
    }
}

/**
 * One round: spawn $n coroutines, await all. Returns [wall ms, min delay ms, max delay ms].
 */
function round_ms(int $n, bool $withDelay): array
{
    $durations = [];
    $body = $withDelay
        ? static function (int $i) use (&$durations): int {
            $t = hrtime(true);
            delay(DELAY_MS);
            $durations[$i] = hrtime(true) - $t;
            return $i;
        }
        : static function (int $i): int {
            return $i;
        };

    $coroutines = [];
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $coroutines[] = spawn($body, $i);
    }
    $sum = 0;
    foreach ($coroutines as $c) {
        $sum += await($c);
    }
    $ms = (hrtime(true) - $t0) / 1e6;

    bench_check($sum === intdiv($n * ($n - 1), 2), "round results summed to $sum");
    $min = $max = 0.0;
    if ($withDelay) {
        bench_check(count($durations) === $n, count($durations) . " of $n delays completed");
        $min = min($durations) / 1e6;
        $max = max($durations) / 1e6;
        bench_check($min >= DELAY_MS - 1, sprintf('a delay(%d) returned after %.3f ms', DELAY_MS, $min));
    }
    return [$ms, $min, $max];
}

if ($cold !== null) {
    [$ms] = round_ms($n, $cold === 'delay');
    printf("ms=%.3f\n", $ms);
    exit(0);
}

$reps = bench_reps();
$pool = (int) ini_get('async.context_pool_size');
bench_header("delay_10k: $n concurrent coroutines x delay(" . DELAY_MS . "), main awaits all");
printf("async.context_pool_size=%d%s\n", $pool,
    $pool < $n ? "  (WARNING: < $n, warm rounds cannot reuse every context; run with -d async.context_pool_size=$n)" : '');

// Cold rounds: fresh processes, same binary and flags. Alternate delay / empty.
$coldDelay = $coldEmpty = [];
for ($r = 0; $r < $reps; $r++) {
    foreach (['delay', 'empty'] as $what) {
        $kv = bench_parse_kv(bench_run_child(["--cold=$what", (string) $n]));
        bench_check(isset($kv['ms']), "cold child ($what) printed no figure");
        if ($what === 'delay') {
            $coldDelay[] = $kv['ms'];
        } else {
            $coldEmpty[] = $kv['ms'];
        }
    }
    printf("  cold rep %d: delay round %.2f ms, empty round %.2f ms\n", $r + 1, end($coldDelay), end($coldEmpty));
}

// Warm rounds in this process: first fill the pool, then alternate delay / empty rounds.
[$firstMs] = round_ms($n, true);
printf("  this process's own first (cold) round: %.2f ms\n", $firstMs);
round_ms($n, false);

$warmDelay = $warmEmpty = $overhead = $minDelay = $maxDelay = [];
for ($r = 0; $r < $reps; $r++) {
    if ($r % 2 === 0) {
        [$d, $lo, $hi] = round_ms($n, true);
        [$e] = round_ms($n, false);
    } else {
        [$e] = round_ms($n, false);
        [$d, $lo, $hi] = round_ms($n, true);
    }
    $warmDelay[] = $d;
    $warmEmpty[] = $e;
    $minDelay[] = $lo;
    $maxDelay[] = $hi;
    printf("  warm rep %d: delay round %.2f ms (each delay lasted %.2f .. %.2f ms), empty round %.2f ms\n",
        $r + 1, $d, $lo, $hi, $e);
}

$cd = bench_median($coldDelay);
$ce = bench_median($coldEmpty);
$wd = bench_median($warmDelay);
$we = bench_median($warmEmpty);
printf("RESULT delay_10k cold round: %.2f ms (median of %d fresh processes; spread %s)\n", $cd, count($coldDelay), bench_spread($coldDelay, 2));
printf("RESULT delay_10k cold empty-body round (overhead baseline): %.2f ms (spread %s)\n", $ce, bench_spread($coldEmpty, 2));
printf("RESULT delay_10k warm round: %.2f ms (median; spread %s)\n", $wd, bench_spread($warmDelay, 2));
printf("RESULT delay_10k warm empty-body round (overhead baseline): %.2f ms (spread %s)\n", $we, bench_spread($warmEmpty, 2));
printf("RESULT delay_10k ratios: warm/theoretical %d ms = %.2f, warm/empty-body = %.2f (warm minus empty-body = %.2f ms), cold/theoretical = %.2f, cold/warm = %.2f\n",
    DELAY_MS, $wd / DELAY_MS, $wd / $we, $wd - $we, $cd / DELAY_MS, $cd / $wd);
printf("RESULT delay_10k each delay(%d) lasted %.2f .. %.2f ms in warm rounds (median of per-round min .. max)\n",
    DELAY_MS, bench_median($minDelay), bench_median($maxDelay));
printf("RESULT delay_10k per coroutine: warm %.2f µs, warm empty-body %.2f µs, cold %.2f µs\n",
    $wd * 1000 / $n, $we * 1000 / $n, $cd * 1000 / $n);
bench_goal('delay_10k warm round <= ' . GOAL_WARM_MS . ' ms', $wd <= GOAL_WARM_MS,
    sprintf('%.2f ms; empty-body baseline %.2f ms in the same run', $wd, $we));
