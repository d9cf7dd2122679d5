<?php
/*
 * Files: scheduling latency and cost of the regular-file hook (hooks/stdio_files.c).
 *
 * (a) the worst gap a 1 ms ticker coroutine sees while another coroutine writes then reads a
 *     256 MB file (fwrite and fread of 8 MB requests, file_put_contents, file_get_contents);
 *     goal <= 20 ms. The window includes the opens, closes and the two unlink()s (freeing
 *     256 MB takes ext4 tens of ms: it runs on the thread pool, see docs/stdio.md);
 * (b) 4 KiB fread()s from the page cache inside a coroutine vs the same loop outside any
 *     coroutine (PHP's own op, same process): goal ratio <= 1.2;
 * (c) throughput of 256 MB written and read back in a coroutine vs outside: goal ratio >= 0.9.
 *
 *   php -n -d extension=modules/async.so -d memory_limit=-1 bench/files.php [megabytes]
 */
declare(strict_types=1);
require __DIR__ . '/common.php';

use function Async\{spawn, await, delay};

$mb = bench_scale((int) ($argv[1] ?? 256));
$reps = bench_reps(5);
$dir = sys_get_temp_dir();
$chunk = str_repeat(random_bytes(4096), 2048); // 8 MB
$big = str_repeat($chunk, intdiv($mb, 8));
$path = fn (string $tag, int $i) => "$dir/async-bench-files-$tag-" . getmypid() . "-$i";

/* Writes $mb MB in 8 MB fwrite()s, reads it back in 8 MB fread()s, then once more with
 * file_put_contents/file_get_contents. Returns [ms write+read, bytes read]. */
function file_round(string $a, string $b, string $chunk, string $big, int $mb): array
{
    $t0 = hrtime(true);
    $fp = fopen($a, 'x+');
    $n = intdiv($mb, 8);
    for ($i = 0; $i < $n; $i++) {
        fwrite($fp, $chunk);
    }
    rewind($fp);
    $read = 0;
    while (!feof($fp)) {
        $read += strlen(fread($fp, 8 << 20));
    }
    $t1 = hrtime(true);
    fclose($fp);
    $t2 = hrtime(true);
    file_put_contents($b, $big);
    $read += strlen(file_get_contents($b));
    $t3 = hrtime(true);
    return [($t1 - $t0 + $t3 - $t2) / 1e6, $read];
}

bench_header("files: a ticker's worst gap during {$mb} MB of file I/O; 4 KiB reads and throughput vs stock");

/* (a) + (c) */
$gaps = $inCo = $outCo = [];
for ($r = 0; $r < $reps; $r++) {
    foreach ($r % 2 ? ['out', 'in'] : ['in', 'out'] as $where) {
        $a = $path('a', $r) . $where;
        $b = $path('b', $r) . $where;
        if ($where === 'out') {
            [$ms, $read] = file_round($a, $b, $chunk, $big, $mb);
            $outCo[] = $ms;
        } else {
            $max = 0.0;
            $run = true;
            $start = $end = null;
            $ticker = spawn(function () use (&$max, &$run, &$start, &$end) {
                $last = null;
                while ($run) {
                    delay(1);
                    // The window: the I/O, the closes and the unlinks.
                    $now = min(hrtime(true), $end ?? PHP_INT_MAX);
                    $from = max($last ?? 0, $start ?? PHP_INT_MAX);
                    if ($now > $from) {
                        $max = max($max, ($now - $from) / 1e6);
                    }
                    $last = $now;
                }
            });
            [$ms, $read] = await(spawn(function () use ($a, $b, $chunk, $big, $mb, &$run, &$start, &$end) {
                delay(5); // the ticker is running
                $start = hrtime(true);
                $r = file_round($a, $b, $chunk, $big, $mb);
                unlink($a);
                unlink($b);
                $end = hrtime(true);
                $run = false;
                return $r;
            }));
            await($ticker);
            $gaps[] = $max;
            $inCo[] = $ms;
        }
        bench_check($read === 2 * intdiv($mb, 8) * (8 << 20), "read back every byte");
        if ($where === 'out') {
            unlink($a);
            unlink($b);
        }
    }
}
$gap = bench_median($gaps);
printf("(a) worst ticker gap during %d MB written + read twice: median %.1f ms (%s) per run\n", $mb, $gap, bench_spread($gaps, 1));
bench_goal('files worst ticker gap', $gap <= 20.0, sprintf('%.1f ms <= 20 ms', $gap));
$tin = bench_median($inCo);
$tout = bench_median($outCo);
$ratio = $tout / $tin;
printf("(c) throughput: coroutine %.0f MB/s (%s ms), stock %.0f MB/s (%s ms), ratio %.2f\n",
    4 * $mb / ($tin / 1000), bench_spread($inCo, 0), 4 * $mb / ($tout / 1000), bench_spread($outCo, 0), $ratio);
bench_goal('files throughput vs stock', $ratio >= 0.9, sprintf('%.2f >= 0.9', $ratio));

/* (b) */
$small = $path('small', 0);
file_put_contents($small, str_repeat(random_bytes(4096), 4096)); // 16 MB, in the page cache now
$loop = function () use ($small): float {
    $fp = fopen($small, 'r');
    $t0 = hrtime(true);
    $n = 0;
    while (($s = fread($fp, 4096)) !== '') {
        $n += strlen($s);
    }
    $ns = (hrtime(true) - $t0) / ($n / 4096);
    fclose($fp);
    return $ns;
};
$loop();
$sin = $sout = [];
for ($r = 0; $r < max(7, $reps); $r++) {
    foreach ($r % 2 ? ['out', 'in'] : ['in', 'out'] as $where) {
        if ($where === 'out') {
            $sout[] = $loop();
        } else {
            $sin[] = await(spawn($loop));
        }
    }
}
unlink($small);
$a = bench_median($sin);
$b = bench_median($sout);
printf("(b) 4 KiB fread: coroutine %.0f ns (%s), stock %.0f ns (%s), ratio %.2f\n", $a, bench_spread($sin, 0), $b, bench_spread($sout, 0), $a / $b);
bench_goal('files 4 KiB read vs stock', $a / $b <= 1.2, sprintf('%.2f <= 1.2', $a / $b));
