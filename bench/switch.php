<?php
/*
 * switch: suspend/resume round trips.
 *
 * (a) one coroutine calls Async\suspend() N times while main awaits it. One round trip =
 *     re-queue + switch to the scheduler + switch back.
 *     baseline: a native Fiber calls Fiber::suspend() N times, main calls ->resume() N times
 *     (one round trip = 2 switches, no queue).               Goal: ratio coroutine/Fiber <= 1.1
 *     (issue #15's "switch round trip": its table's 1.24x was measured with this pattern; the
 *     older goal was 1.2)
 *
 * (b) two coroutines ping-pong via Async\suspend(): A runs, suspends, B runs, suspends, A runs...
 *     One round trip = A -> B -> A (two suspend() calls, 4 context switches through the scheduler).
 *     baseline: two native Fibers resumed alternately by main (A, B, A, ...; also 4 switches per
 *     round trip). Informational ratio, no goal.
 *
 * (c) the switch round trip itself: (b)'s coroutine ping-pong, where each suspend() hands the CPU
 *     straight to the other coroutine (A -> B -> A: two switches, no scheduler in between), against
 *     (a)'s Fiber round trip (main -> Fiber -> main: two switches).   Goal: ratio <= 1.1
 *     (stricter than (a): two full suspend() calls against one resume() and one suspend())
 *
 * All patterns check that every suspend was resumed exactly once and, for (b), that A and B
 * strictly alternate.
 *
 * Usage: php -n -d extension=modules/async.so bench/switch.php [round_trips=500000]
 */

declare(strict_types=1);

require __DIR__ . '/common.php';

use function Async\await;
use function Async\spawn;
use function Async\suspend;

const GOAL_RATIO_A = 1.1;
const GOAL_RATIO_C = 1.1;

$n = (int) ($argv[1] ?? bench_scale(500_000));
$reps = bench_reps();

bench_header("switch: suspend/resume round trips, $n per measurement");

/* (a) -------------------------------------------------------------------------------------- */

function a_coroutine(int $n): int
{
    $c = spawn(static function (int $n): int {
        $k = 0;
        for ($i = 0; $i < $n; $i++) {
            suspend();
            $k++;
        }
        return $k;
    }, $n);
    // Let it start (spawn only queues it), so the timed part is the N suspend round trips only.
    $t0 = hrtime(true);
    $k = await($c);
    $ns = hrtime(true) - $t0;
    bench_check($k === $n, "(a) coroutine resumed $k times, expected $n");
    return $ns;
}

function a_fiber(int $n): int
{
    return bench_fiber_round_trips($n, '(a) Fiber baseline');
}

/* (b) -------------------------------------------------------------------------------------- */

function b_coroutines(int $n): int
{
    $log = '';
    $body = static function (string $me, int $n) use (&$log): void {
        for ($i = 0; $i < $n; $i++) {
            $log .= $me;
            suspend();
        }
    };
    $a = spawn($body, 'a', $n);
    $b = spawn($body, 'b', $n);
    $t0 = hrtime(true);
    await($a);
    await($b);
    $ns = hrtime(true) - $t0;
    bench_check($log === str_repeat('ab', $n), '(b) coroutines did not strictly alternate: ' . substr($log, 0, 40) . '...');
    return $ns;
}

function b_fibers(int $n): int
{
    $log = '';
    $body = static function (string $me, int $n) use (&$log): void {
        for ($i = 0; $i < $n; $i++) {
            $log .= $me;
            Fiber::suspend();
        }
    };
    $a = new Fiber($body);
    $b = new Fiber($body);
    $t0 = hrtime(true);
    $a->start('a', $n);
    $b->start('b', $n);
    while (!$a->isTerminated() || !$b->isTerminated()) {
        if (!$a->isTerminated()) {
            $a->resume();
        }
        if (!$b->isTerminated()) {
            $b->resume();
        }
    }
    $ns = hrtime(true) - $t0;
    bench_check($log === str_repeat('ab', $n), '(b) fibers did not strictly alternate');
    return $ns;
}

/* ------------------------------------------------------------------------------------------ */

// Warm-up (launches the scheduler, first context, allocator).
a_coroutine(min($n, 1000));
a_fiber(min($n, 1000));
b_coroutines(min($n, 1000));
b_fibers(min($n, 1000));

$results = [];
foreach (['a' => ['a_coroutine', 'a_fiber'], 'b' => ['b_coroutines', 'b_fibers'], 'c' => ['b_coroutines', 'a_fiber']] as $pattern => [$subject, $baseline]) {
    $co = $fb = $ratios = [];
    for ($r = 0; $r < $reps; $r++) {
        if ($r % 2 === 0) {
            $c = $subject($n);
            $f = $baseline($n);
        } else {
            $f = $baseline($n);
            $c = $subject($n);
        }
        $co[] = $c / $n / 1000;
        $fb[] = $f / $n / 1000;
        $ratios[] = $c / $f;
        printf("  (%s) rep %d: coroutine %.3f µs/round trip, Fiber %.3f µs/round trip, ratio %.3f\n",
            $pattern, $r + 1, end($co), end($fb), end($ratios));
    }
    $results[$pattern] = [bench_median($co), bench_median($fb), bench_median($ratios), $co, $fb, $ratios];
}

[$ac, $af, $ar, $acs, $afs, $ars] = $results['a'];
printf("RESULT switch (a) coroutine suspend()+await: %.3f µs/round trip (median; spread %s)\n", $ac, bench_spread($acs));
printf("RESULT switch (a) Fiber suspend()/resume() baseline: %.3f µs/round trip (median; spread %s)\n", $af, bench_spread($afs));
printf("RESULT switch (a) ratio coroutine/Fiber: %.3f (spread %s)\n", $ar, bench_spread($ars));

[$bc, $bf, $br, $bcs, $bfs, $brs] = $results['b'];
printf("RESULT switch (b) two coroutines ping-pong: %.3f µs/round trip (median; spread %s)\n", $bc, bench_spread($bcs));
printf("RESULT switch (b) two Fibers alternated by main baseline: %.3f µs/round trip (median; spread %s)\n", $bf, bench_spread($bfs));
printf("RESULT switch (b) ratio coroutine/Fiber: %.3f (spread %s; no goal)\n", $br, bench_spread($brs));

[$cc, $cf, $cr, $ccs, $cfs, $crs] = $results['c'];
printf("RESULT switch (c) coroutine A -> B -> A (direct hand-offs): %.3f µs/round trip (median; spread %s)\n", $cc, bench_spread($ccs));
printf("RESULT switch (c) Fiber main -> Fiber -> main baseline: %.3f µs/round trip (median; spread %s)\n", $cf, bench_spread($cfs));
printf("RESULT switch (c) ratio coroutine/Fiber: %.3f (spread %s)\n", $cr, bench_spread($crs));

bench_goal('switch (a) ratio <= ' . GOAL_RATIO_A, $ar <= GOAL_RATIO_A, sprintf('ratio %.3f', $ar));
bench_goal('switch (c) ratio <= ' . GOAL_RATIO_C, $cr <= GOAL_RATIO_C, sprintf('ratio %.3f', $cr));
