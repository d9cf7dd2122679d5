<?php
/*
 * watchdog: what async.block_warning_ms costs.
 *
 * Two workloads, each in fresh child processes with the watchdog off (0) and on (100 ms, and 10 ms
 * for a watcher that wakes every 2.5 ms), alternating, median of BENCH_REPS:
 *  (a) switches: two coroutines pass a counter over two rendezvous channels (every message parks
 *      one and wakes the other: the switch counter the watcher reads is bumped on each switch);
 *  (b) compute: one coroutine runs a PHP loop that suspends every 10,000 iterations (the VM and
 *      the watcher thread side by side, no warning due).
 * Off, the only cost is one increment per switch and per reactor wait (no thread exists); the
 * figure for "off" is its ratio to itself and the goal is for "on".
 *
 * Goal: on (100 ms) / off <= 1.02 for both workloads.
 *
 *   php -n -d extension=modules/async.so bench/watchdog.php
 */
declare(strict_types=1);
require __DIR__ . '/common.php';

use Async\Channel;
use function Async\{spawn, await, suspend};

$mode = $argv[1] ?? '';
if ($mode !== '') {
    $n = (int) $argv[2];
    $t0 = hrtime(true);
    if ($mode === 'switches') {
        $ping = new Channel();
        $pong = new Channel();
        $b = spawn(function () use ($ping, $pong, $n) {
            for ($i = 0; $i < $n; $i++) {
                $pong->send($ping->recv() + 1);
            }
        });
        $a = spawn(function () use ($ping, $pong, $n) {
            $v = 0;
            for ($i = 0; $i < $n; $i++) {
                $ping->send($v);
                $v = $pong->recv();
            }
            return $v;
        });
        $ok = await($a) === $n;
        await($b);
    } else {
        $ok = await(spawn(function () use ($n) {
            $x = 0;
            for ($i = 0; $i < $n; $i++) {
                $x = ($x * 31 + $i) % 1000003;
                if ($i % 10000 === 0) {
                    suspend();
                }
            }
            return $x >= 0;
        }));
    }
    $ms = (hrtime(true) - $t0) / 1e6;
    bench_check($ok, "$mode: result");
    echo "ms=$ms\n";
    exit(0);
}

$work = ['switches' => max(1000, bench_scale(200_000)), 'compute' => max(100_000, bench_scale(20_000_000))];
bench_header(sprintf('watchdog: %d channel messages; %d loop iterations; off vs on', $work['switches'], $work['compute']));
$reps = bench_reps();
$settings = ['off' => '0', 'on100' => '100', 'on10' => '10'];
foreach ($work as $name => $n) {
    $runs = array_fill_keys(array_keys($settings), []);
    for ($r = 0; $r < $reps; $r++) {
        $order = $r % 2 ? array_reverse($settings, true) : $settings;
        foreach ($order as $label => $ms) {
            $runs[$label][] = bench_parse_kv(bench_run_child([$name, (string) $n], ['async.block_warning_ms' => $ms]))['ms'];
        }
    }
    $off = bench_median($runs['off']);
    $on = bench_median($runs['on100']);
    $on10 = bench_median($runs['on10']);
    printf("(%s) off: %.1f ms (%s); on, 100 ms: %.1f ms (%s), ratio %.3f; on, 10 ms: %.1f ms, ratio %.3f\n",
        $name, $off, bench_spread($runs['off'], 1), $on, bench_spread($runs['on100'], 1), $on / $off, $on10, $on10 / $off);
    bench_goal("watchdog $name on/off <= 1.02", $on / $off <= 1.02, sprintf('ratio %.3f', $on / $off));
}
