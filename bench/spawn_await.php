<?php
/*
 * spawn_await: cost of one coroutine's whole life, sequentially.
 *
 *   subject : await(spawn($fn))               per iteration (context comes from the pool)
 *   baseline: (new Fiber($fn))->start()        per iteration (runs to completion; each Fiber maps
 *                                              and unmaps its own C stack)
 *
 * Prints µs/op of each (median of BENCH_REPS interleaved repetitions) and the ratio
 * coroutine/Fiber. Goals: ratio <= 0.2, and <= 0.025 (Swoole's level here).
 *
 * Also (informational, no goal):
 *  - the same loop run inside a coroutine, where each child's end hands the CPU straight back to
 *    the awaiting coroutine (main is never handed to: it resumes through the loop);
 *  - spawn + run + finish without await, one at a time: spawn($fn, $i) then suspend(), so the child
 *    runs to its end before main goes on (as Swoole's go() and the Fiber baseline: no result is
 *    delivered through an await);
 *  - the same in bursts: 100 spawns, then one suspend() that runs all of them (a server spawning
 *    a coroutine per connection of one poll batch); main's own switch is shared by the 100.
 *  - the floor: the work an await(spawn($fn, $i)) cannot do without, built from PHP's own pieces
 *    (an object made and freed for the handle; $fn($i) called on the other side of a Fiber switch
 *    round trip, main -> Fiber -> main, with one long-lived Fiber; the result brought back). A
 *    runtime can only add to it (a queue, a scope, an awaiter); its ratio to a Fiber's life is
 *    the least any await(spawn()) on PHP's switch could show here.
 *
 * Usage: php -n -d extension=modules/async.so bench/spawn_await.php [iterations=100000]
 */

declare(strict_types=1);

require __DIR__ . '/common.php';

use function Async\await;
use function Async\spawn;
use function Async\suspend;

const GOAL_RATIO = 0.2;
const GOAL_RATIO_SWOOLE = 0.025; /* Swoole's level on this machine (issue #15) */

$n = (int) ($argv[1] ?? bench_scale(100_000));
$reps = bench_reps();

bench_header("spawn_await: sequential await(spawn(fn)) vs (new Fiber(fn))->start(), $n iterations");

function run_coroutines(int $n): int
{
    $fn = static function (int $i): int {
        return $i;
    };
    $sum = 0;
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $sum += await(spawn($fn, $i));
    }
    $ns = hrtime(true) - $t0;
    bench_check($sum === intdiv($n * ($n - 1), 2), "await(spawn) results summed to $sum");
    return $ns;
}

function run_in_coroutine(int $n): int
{
    return await(spawn('run_coroutines', $n));
}

/** spawn + run + finish without await: $burst spawns, then one suspend() that runs them all. */
function run_spawn_suspend(int $n, int $burst): int
{
    $sum = 0;
    $fn = static function (int $i) use (&$sum): void {
        $sum += $i;
    };
    $t0 = hrtime(true);
    if ($burst === 1) {
        // A plain loop: the burst's inner loop and min() would cost as much PHP as the spawn.
        for ($i = 0; $i < $n; $i++) {
            spawn($fn, $i);
            suspend();
        }
    } else {
        for ($i = 0; $i < $n; $i += $burst) {
            for ($j = $i, $end = min($n, $i + $burst); $j < $end; $j++) {
                spawn($fn, $j);
            }
            suspend();
        }
    }
    $ns = hrtime(true) - $t0;
    bench_check($sum === intdiv($n * ($n - 1), 2), "spawn + suspend() (bursts of $burst) summed to $sum");
    return $ns;
}

function run_floor(int $n): int
{
    $fn = static function (int $i): int {
        return $i;
    };
    $fiber = new Fiber(static function () use ($fn): void {
        $v = Fiber::suspend();
        for (;;) {
            $v = Fiber::suspend($fn($v));
        }
    });
    $fiber->start();
    $sum = 0;
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $handle = new ArrayObject();
        $sum += $fiber->resume($i);
        unset($handle);
    }
    $ns = hrtime(true) - $t0;
    bench_check($sum === intdiv($n * ($n - 1), 2), "floor results summed to $sum");
    return $ns;
}

function run_fibers(int $n): int
{
    $fn = static function (int $i): int {
        return $i;
    };
    $sum = 0;
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $f = new Fiber($fn);
        $f->start($i);
        $sum += $f->getReturn();
    }
    $ns = hrtime(true) - $t0;
    bench_check($sum === intdiv($n * ($n - 1), 2), "Fiber results summed to $sum");
    return $ns;
}

// Warm-up: launches the scheduler, fills the context pool, warms the allocator for both.
run_coroutines(min($n, 1000));
run_spawn_suspend(min($n, 1000), 1);
run_fibers(min($n, 1000));

// Heap still held after a run, per iteration: should be ~0 for both (nothing is kept alive).
$m0 = memory_get_usage();
run_coroutines(10_000);
$retainedCo = (memory_get_usage() - $m0) / 10_000;
$m0 = memory_get_usage();
run_fibers(10_000);
$retainedFb = (memory_get_usage() - $m0) / 10_000;

$co = $fb = $ratios = $nested = $single = $burst = $floor = $overFloor = [];
for ($r = 0; $r < $reps; $r++) {
    // Alternate the order so neither side always runs right after the other.
    if ($r % 2 === 0) {
        $c = run_coroutines($n);
        $f = run_fibers($n);
    } else {
        $f = run_fibers($n);
        $c = run_coroutines($n);
    }
    $nested[] = run_in_coroutine($n) / $n / 1000;
    $single[] = run_spawn_suspend($n, 1) / $f;
    $burst[] = run_spawn_suspend($n, 100) / $f;
    $fl = run_floor($n);
    $floor[] = $fl / $f;
    $co[] = $c / $n / 1000;
    $fb[] = $f / $n / 1000;
    $ratios[] = $c / $f;
    $overFloor[] = $c / $fl;
    printf("  rep %d: coroutine %.3f µs/op, Fiber %.3f µs/op, ratio %.3f; inside a coroutine %.3f µs/op;"
        . " without await %.4f, in bursts of 100 %.4f, floor %.4f of a Fiber\n",
        $r + 1, end($co), end($fb), end($ratios), end($nested), end($single), end($burst), end($floor));
}

$mc = bench_median($co);
$mf = bench_median($fb);
$mr = bench_median($ratios);
printf("RESULT spawn_await coroutine: %.3f µs/op (median; spread %s)\n", $mc, bench_spread($co));
printf("RESULT spawn_await Fiber baseline: %.3f µs/op (median; spread %s)\n", $mf, bench_spread($fb));
printf("RESULT spawn_await ratio coroutine/Fiber: %.3f (median of per-rep ratios; spread %s)\n", $mr, bench_spread($ratios));
printf("RESULT spawn_await inside a coroutine (each end hands off to the awaiter): %.3f µs/op (median; spread %s; no goal)\n",
    bench_median($nested), bench_spread($nested));
printf("RESULT spawn + run + finish without await (spawn, then suspend()): %.4f of a Fiber's (median; spread %s; no goal)\n",
    bench_median($single), bench_spread($single));
printf("RESULT the same in bursts of 100 spawns per suspend(): %.4f of a Fiber's (median; spread %s; no goal)\n",
    bench_median($burst), bench_spread($burst));
printf("RESULT the floor from PHP's own pieces (an object, the call across a Fiber switch round trip): %.4f of a Fiber's"
    . " (median; spread %s; no goal); await(spawn()) is %.2fx the floor (median of per-rep ratios; spread %s)\n",
    bench_median($floor), bench_spread($floor), bench_median($overFloor), bench_spread($overFloor));
printf("RESULT spawn_await heap retained after completion: coroutine %.0f B/op, Fiber %.0f B/op (expected ~0; more is a leak)\n",
    $retainedCo, $retainedFb);
bench_goal('spawn_await ratio <= ' . GOAL_RATIO, $mr <= GOAL_RATIO, sprintf('ratio %.3f', $mr));
bench_goal('spawn_await ratio <= ' . GOAL_RATIO_SWOOLE, $mr <= GOAL_RATIO_SWOOLE, sprintf('ratio %.3f', $mr));
