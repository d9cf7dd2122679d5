<?php
/*
 * watcher: cost of Async\FileSystemWatcher.
 *
 * (a) round trip: a coroutine touches a file, then takes the change from a waiting foreach (the
 *     iterator suspends, inotify wakes the loop, the change is buffered and handed over). Figure:
 *     time per change. baseline: the touch() alone (the syscalls every change costs anyway).
 *     Informational: the round trip is dominated by epoll + read(inotify) + two switches.
 *
 * (b) throughput: 10,000 changes of distinct files made in batches of 500 while nobody iterates,
 *     then taken by foreach (raw mode: one event per change reported). Figure: changes per
 *     second, end to end (the touches included). baseline: the same touches with no watcher.
 *     Goal: ratio <= 3 (watching at most triples the cost of the changes themselves).
 *
 * Usage: php -n -d extension=modules/async.so bench/watcher.php [rounds_a=2000] [changes_b=10000]
 */

declare(strict_types=1);

require __DIR__ . '/common.php';

use Async\FileSystemWatcher;

const GOAL_RATIO_B = 3.0;

$na = (int) ($argv[1] ?? bench_scale(2_000));
$nb = (int) ($argv[2] ?? bench_scale(10_000));
$reps = bench_reps();

bench_header("watcher: round trip $na changes, throughput $nb changes");

$dir = sys_get_temp_dir() . '/async-bench-watch-' . getmypid();
@mkdir($dir);
register_shutdown_function(function () use ($dir) {
    foreach (glob("$dir/*") as $f) {
        unlink($f);
    }
    rmdir($dir);
});

/* (a) -------------------------------------------------------------------------------------- */
$sub = $base = [];
for ($r = 0; $r < $reps; $r++) {
    $w = new FileSystemWatcher($dir, coalesce: false);
    $it = $w->getIterator();
    $sub[] = bench_time_ns(function () use ($it, $dir, $na) {
        for ($i = 0; $i < $na; $i++) {
            touch("$dir/a");
            $i === 0 ? $it->rewind() : $it->next();
            bench_check($it->valid() && $it->current()->filename === 'a', 'round trip event');
        }
    }) / $na;
    $w->close();
    $base[] = bench_time_ns(function () use ($dir, $na) {
        for ($i = 0; $i < $na; $i++) {
            touch("$dir/a");
        }
    }) / $na;
}
$ms = bench_median($sub) / 1000;
$bs = bench_median($base) / 1000;
printf("(a) round trip: %.1f us per change (%s); touch() alone %.1f us; ratio %.1f\n",
    $ms, bench_spread(array_map(fn ($v) => $v / 1000, $sub), 1), $bs, $ms / $bs);

/* (b) -------------------------------------------------------------------------------------- */
$sub = $base = [];
for ($r = 0; $r < $reps; $r++) {
    array_map('unlink', glob("$dir/b*"));    // every rep starts with the 1,000 files new
    $w = new FileSystemWatcher($dir, coalesce: false);
    $sub[] = bench_time_ns(function () use ($w, $dir, $nb) {
        $it = $w->getIterator();
        $taken = 0;
        for ($done = 0; $done < $nb; $done += 500) {
            for ($i = $done; $i < $done + 500; $i++) {
                touch("$dir/b" . ($i % 1000));
            }
            // take this batch's changes (one attribute change per touch of an existing file,
            // a create + attribute change for the first 1,000)
            $want = $done < 1000 ? 1000 : 500;
            for ($k = 0; $k < $want; $k++) {
                $taken === 0 ? $it->rewind() : $it->next();
                $taken++;
            }
        }
        bench_check($it->valid(), 'throughput events');
    }) / $nb;
    $w->close();
    $base[] = bench_time_ns(function () use ($dir, $nb) {
        for ($i = 0; $i < $nb; $i++) {
            touch("$dir/b" . ($i % 1000));
        }
    }) / $nb;
}
$per = bench_median($sub);
$bper = bench_median($base);
$ratio = $per / $bper;
printf("(b) throughput: %.0f changes/s (%.1f us per change); touch() alone %.1f us; ratio %.2f\n",
    1e9 / $per, $per / 1000, $bper / 1000, $ratio);
bench_goal('watcher throughput vs the changes alone', $ratio <= GOAL_RATIO_B, sprintf('ratio %.2f <= %.1f', $ratio, GOAL_RATIO_B));
