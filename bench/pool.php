<?php
/*
 * pool: cost of Async\Pool acquire() + release().
 *
 * (a) uncontended: $r = $pool->acquire(); $pool->release($r); with an idle resource and no hooks
 *     (ring pop + ring push, no suspension).
 *     baseline: the same round trip on a plain PHP array used as a stack:
 *     $r = array_pop($stack); $stack[] = $r;                 Goal: ratio pool/array <= 4
 *
 * (b) the same with beforeAcquire and beforeRelease closures (two user calls per round trip);
 *     informational.
 *
 * (c) contended: two coroutines share a pool of max 1 and hand the resource to each other
 *     (release() wakes the parked acquirer, which then runs): one round trip = 2 hand-offs and
 *     4 switches. baseline: the same two coroutines alternating with Async\suspend() and no
 *     pool. Informational.
 *
 * Every pattern checks its result (each acquire got a resource, the counts are back to idle).
 *
 * Usage: php -n -d extension=modules/async.so bench/pool.php [round_trips=1000000]
 */

declare(strict_types=1);

require __DIR__ . '/common.php';

use Async\Pool;
use function Async\await;
use function Async\spawn;
use function Async\suspend;

const GOAL_RATIO_A = 4.0;

$n = (int) ($argv[1] ?? bench_scale(1_000_000));
$nc = intdiv($n, 5); // contended round trips cost far more
$reps = bench_reps();

bench_header("pool: acquire()+release() round trips, $n per measurement ($nc contended)");

function a_pool(int $n): int
{
    $pool = new Pool(static fn() => new stdClass(), min: 4, max: 4);
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $r = $pool->acquire();
        $pool->release($r);
    }
    $ns = hrtime(true) - $t0;
    bench_check($pool->idleCount() === 4 && $pool->activeCount() === 0, '(a) pool counts after the loop');
    return $ns;
}

function a_array(int $n): int
{
    $stack = [new stdClass(), new stdClass(), new stdClass(), new stdClass()];
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $r = array_pop($stack);
        $stack[] = $r;
    }
    $ns = hrtime(true) - $t0;
    bench_check(count($stack) === 4, '(a) array size after the loop');
    return $ns;
}

function b_pool_hooks(int $n): int
{
    $checks = 0;
    $pool = new Pool(static fn() => new stdClass(),
        beforeAcquire: static function ($r) use (&$checks): bool { $checks++; return true; },
        beforeRelease: static function ($r) use (&$checks): bool { $checks++; return true; },
        min: 4, max: 4);
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $r = $pool->acquire();
        $pool->release($r);
    }
    $ns = hrtime(true) - $t0;
    bench_check($checks === 2 * $n, "(b) hooks ran $checks times, expected " . 2 * $n);
    return $ns;
}

function c_pool(int $n): int
{
    $pool = new Pool(static fn() => new stdClass(), max: 1);
    $body = static function (int $n) use ($pool): int {
        $k = 0;
        for ($i = 0; $i < $n; $i++) {
            $r = $pool->acquire();  // parks until the other one releases
            $k++;
            suspend();              // let the other one park on the pool
            $pool->release($r);     // hands it over and wakes it
        }
        return $k;
    };
    $a = spawn($body, $n);
    $b = spawn($body, $n);
    $t0 = hrtime(true);
    $k = await($a) + await($b);
    $ns = hrtime(true) - $t0;
    bench_check($k === 2 * $n && $pool->idleCount() === 1, "(c) $k acquisitions, expected " . 2 * $n);
    return $ns;
}

function c_suspend(int $n): int
{
    $body = static function (int $n): int {
        $k = 0;
        for ($i = 0; $i < $n; $i++) {
            $k++;
            suspend();
            suspend();
        }
        return $k;
    };
    $a = spawn($body, $n);
    $b = spawn($body, $n);
    $t0 = hrtime(true);
    $k = await($a) + await($b);
    $ns = hrtime(true) - $t0;
    bench_check($k === 2 * $n, "(c) baseline $k rounds");
    return $ns;
}

// Warm-up (scheduler launch, allocator, code caches).
a_pool(1000);
a_array(1000);
b_pool_hooks(1000);
c_pool(1000);
c_suspend(1000);

$patterns = [
    'a' => ['a_pool', 'a_array', $n],
    'b' => ['b_pool_hooks', 'a_array', $n],
    'c' => ['c_pool', 'c_suspend', $nc],
];
$results = [];
foreach ($patterns as $name => [$subject, $baseline, $count]) {
    $s = $b = $ratios = [];
    for ($r = 0; $r < $reps; $r++) {
        if ($r % 2 === 0) {
            $x = $subject($count);
            $y = $baseline($count);
        } else {
            $y = $baseline($count);
            $x = $subject($count);
        }
        $s[] = $x / $count;
        $b[] = $y / $count;
        $ratios[] = $x / $y;
        printf("  (%s) rep %d: %s %.1f ns/round trip, %s %.1f ns/round trip, ratio %.2f\n",
            $name, $r + 1, $subject, end($s), $baseline, end($b), end($ratios));
    }
    $results[$name] = [bench_median($s), bench_median($b), bench_median($ratios), $s, $b, $ratios];
}

[$as, $ab, $ar, $ass, $abs, $ars] = $results['a'];
printf("RESULT pool (a) acquire()+release(), idle resource: %.1f ns/round trip (median; spread %s)\n", $as, bench_spread($ass, 1));
printf("RESULT pool (a) array_pop()+push baseline: %.1f ns/round trip (median; spread %s)\n", $ab, bench_spread($abs, 1));
printf("RESULT pool (a) ratio pool/array: %.2f (spread %s)\n", $ar, bench_spread($ars, 2));
[$bs, $bb, $br, $bss, , $brs] = $results['b'];
printf("RESULT pool (b) with beforeAcquire+beforeRelease closures: %.1f ns/round trip (median; spread %s)\n", $bs, bench_spread($bss, 1));
printf("RESULT pool (b) ratio pool+hooks/array: %.2f (spread %s; no goal)\n", $br, bench_spread($brs, 2));
[$cs, $cb, $cr, $css, $cbs, $crs] = $results['c'];
printf("RESULT pool (c) contended hand-off, 2 coroutines, max 1: %.1f ns/round trip (median; spread %s)\n", $cs, bench_spread($css, 1));
printf("RESULT pool (c) same coroutines alternating with suspend() baseline: %.1f ns/round trip (median; spread %s)\n", $cb, bench_spread($cbs, 1));
printf("RESULT pool (c) ratio: %.2f (spread %s; no goal)\n", $cr, bench_spread($crs, 2));

bench_goal('pool (a) ratio <= ' . GOAL_RATIO_A, $ar <= GOAL_RATIO_A, sprintf('ratio %.2f', $ar));
