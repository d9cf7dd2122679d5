<?php
/*
 * channel: cost of Async\Channel hand-offs.
 *
 * (a) ping-pong: coroutines A and B exchange a counter over two rendezvous channels (A sends on
 *     one and receives on the other, B the reverse). Every message parks one coroutine and wakes
 *     the other: one message = one hand-off of the value + one switch straight into the other
 *     coroutine (a direct hand-off, no scheduler in between). Figure: time per message.
 *     baseline: the same two coroutines pass the counter through a shared variable and alternate
 *     with Async\suspend(): time per suspend() (one re-queue + one switch to the other
 *     coroutine), i.e. the same exchange without a channel.          Goal: ratio <= 1.5
 *     second baseline: a native Fiber's switch round trip (main resumes it, it suspends: two
 *     switches), the floor of any exchange between two stacks.          Goal: ratio <= 1.2
 *
 * (b) throughput: 1,000,000 messages through one Channel(64) from 10 producers to 10 consumers
 *     (foreach until the channel is closed). Figure: messages per second; every message must
 *     arrive exactly once (count and sum checked).
 *     baseline: the same messages pushed and shifted through an SplQueue by one coroutine (the
 *     data-structure cost without any coroutine switch). Informational, no goal.
 *
 * Usage: php -n -d extension=modules/async.so bench/channel.php [messages_a=400000] [messages_b=1000000]
 */

declare(strict_types=1);

require __DIR__ . '/common.php';

use Async\Channel;
use function Async\await;
use function Async\spawn;
use function Async\suspend;

const GOAL_RATIO_A = 1.5;
const GOAL_RATIO_FIBER = 1.2;

$na = (int) ($argv[1] ?? bench_scale(400_000));
$nb = (int) ($argv[2] ?? bench_scale(1_000_000));
$reps = bench_reps();
$reps_b = bench_reps(3);

bench_header("channel: ping-pong $na messages, throughput $nb messages (10 producers, 10 consumers)");

/* (a) -------------------------------------------------------------------------------------- */

/** $n messages in total: $n / 2 round trips. */
function a_channel(int $n): int
{
    $ping = new Channel();
    $pong = new Channel();
    $rounds = intdiv($n, 2);
    $a = spawn(static function () use ($ping, $pong, $rounds): int {
        $v = 0;
        for ($i = 0; $i < $rounds; $i++) {
            $ping->send($v);
            $v = $pong->recv();
        }
        return $v;
    });
    $b = spawn(static function () use ($ping, $pong, $rounds): void {
        for ($i = 0; $i < $rounds; $i++) {
            $pong->send($ping->recv() + 1);
        }
    });
    $t0 = hrtime(true);
    $v = await($a);
    await($b);
    $ns = hrtime(true) - $t0;
    bench_check($v === $rounds, "(a) counter is $v after $rounds round trips");
    return $ns;
}

/** $n suspend() calls in total: the same two coroutines exchange the counter through a shared
 *  variable and alternate with suspend() (A writes it and yields, B increments it and yields). */
function a_suspend(int $n): int
{
    $box = 0;
    $rounds = intdiv($n, 2);
    $a = spawn(static function () use (&$box, $rounds): int {
        $v = 0;
        for ($i = 0; $i < $rounds; $i++) {
            $box = $v;
            suspend();
            $v = $box;
        }
        return $v;
    });
    $b = spawn(static function () use (&$box, $rounds): void {
        for ($i = 0; $i < $rounds; $i++) {
            $box++;
            suspend();
        }
    });
    $t0 = hrtime(true);
    $v = await($a);
    await($b);
    $ns = hrtime(true) - $t0;
    bench_check($v === $rounds, "(a) baseline counter is $v after $rounds round trips (coroutines did not alternate)");
    return $ns;
}

/** $n Fiber switch round trips: main resumes, the Fiber suspends. */
function a_fiber(int $n): int
{
    return bench_fiber_round_trips($n, '(a) Fiber baseline');
}

/* (b) -------------------------------------------------------------------------------------- */

function b_channel(int $n, int $producers = 10, int $consumers = 10, int $capacity = 64): int
{
    $ch = new Channel($capacity);
    $per = intdiv($n, $producers);
    $n = $per * $producers;
    $ps = $cs = [];
    for ($p = 0; $p < $producers; $p++) {
        $ps[] = spawn(static function () use ($ch, $p, $per): void {
            $base = $p * $per;
            for ($i = 0; $i < $per; $i++) {
                $ch->send($base + $i);
            }
        });
    }
    for ($c = 0; $c < $consumers; $c++) {
        $cs[] = spawn(static function () use ($ch): array {
            $count = $sum = 0;
            foreach ($ch as $v) {
                $count++;
                $sum += $v;
            }
            return [$count, $sum];
        });
    }
    $t0 = hrtime(true);
    foreach ($ps as $p) {
        await($p);
    }
    $ch->close();
    $count = $sum = 0;
    foreach ($cs as $c) {
        [$k, $s] = await($c);
        $count += $k;
        $sum += $s;
    }
    $ns = hrtime(true) - $t0;
    bench_check($count === $n && $sum === $n * ($n - 1) / 2, "(b) received $count messages (sum $sum), expected $n");
    return $ns;
}

function b_splqueue(int $n): int
{
    $c = spawn(static function (int $n): int {
        $q = new SplQueue();
        $sum = 0;
        for ($i = 0; $i < $n; $i++) {
            $q->enqueue($i);
            if ($q->count() >= 64) {
                while (!$q->isEmpty()) {
                    $sum += $q->dequeue();
                }
            }
        }
        while (!$q->isEmpty()) {
            $sum += $q->dequeue();
        }
        return $sum;
    }, $n);
    $t0 = hrtime(true);
    $sum = await($c);
    $ns = hrtime(true) - $t0;
    bench_check($sum === $n * ($n - 1) / 2, '(b) baseline sum');
    return $ns;
}

/* ------------------------------------------------------------------------------------------ */

// Warm-up (scheduler launch, contexts, allocator).
a_channel(2000);
a_suspend(2000);
a_fiber(2000);
b_channel(20000);
b_splqueue(20000);

$sa = $ba = $ra = $fa = $rf = [];
for ($r = 0; $r < $reps; $r++) {
    if ($r % 2 === 0) {
        $x = a_channel($na);
        $y = a_suspend($na);
        $z = a_fiber($na);
    } else {
        $z = a_fiber($na);
        $y = a_suspend($na);
        $x = a_channel($na);
    }
    $sa[] = $x / $na;
    $ba[] = $y / $na;
    $fa[] = $z / $na;
    $ra[] = $x / $y;
    $rf[] = $x / $z;
    printf("  (a) rep %d: channel %.1f ns/message, suspend() %.1f ns/switch, Fiber %.1f ns/round trip, ratios %.2f and %.2f\n",
        $r + 1, end($sa), end($ba), end($fa), end($ra), end($rf));
}

$sb = $bb = [];
for ($r = 0; $r < $reps_b; $r++) {
    if ($r % 2 === 0) {
        $x = b_channel($nb);
        $y = b_splqueue($nb);
    } else {
        $y = b_splqueue($nb);
        $x = b_channel($nb);
    }
    $sb[] = $nb / ($x / 1e9);
    $bb[] = $nb / ($y / 1e9);
    printf("  (b) rep %d: channel %.0f messages/s, SplQueue %.0f messages/s\n", $r + 1, end($sb), end($bb));
}

$am = bench_median($sa);
$abm = bench_median($ba);
$ar = bench_median($ra);
printf("RESULT channel (a) ping-pong over two rendezvous channels: %.1f ns/message (median; spread %s)\n", $am, bench_spread($sa, 1));
printf("RESULT channel (a) two coroutines alternating with suspend() baseline: %.1f ns/switch (median; spread %s)\n", $abm, bench_spread($ba, 1));
printf("RESULT channel (a) ratio channel/suspend: %.2f (spread %s)\n", $ar, bench_spread($ra, 2));
$afm = bench_median($fa);
$arf = bench_median($rf);
printf("RESULT channel (a) Fiber switch round trip baseline: %.1f ns (median; spread %s)\n", $afm, bench_spread($fa, 1));
printf("RESULT channel (a) ratio channel message/Fiber round trip: %.2f (spread %s)\n", $arf, bench_spread($rf, 2));
printf("RESULT channel (b) 10 producers -> Channel(64) -> 10 consumers: %.0f messages/s (median of %d; spread %s)\n",
    bench_median($sb), $reps_b, bench_spread($sb, 0));
printf("RESULT channel (b) SplQueue enqueue+dequeue in one coroutine baseline: %.0f messages/s (median; spread %s; no goal)\n",
    bench_median($bb), bench_spread($bb, 0));

bench_goal('channel (a) ratio <= ' . GOAL_RATIO_A, $ar <= GOAL_RATIO_A, sprintf('ratio %.2f', $ar));
bench_goal('channel (a) message/Fiber round trip <= ' . GOAL_RATIO_FIBER, $arf <= GOAL_RATIO_FIBER, sprintf('ratio %.2f', $arf));
