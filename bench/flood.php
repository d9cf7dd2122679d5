<?php
/*
 * bench/flood.php — how many concurrent keep-alive connections ONE server process holds, and how
 * it serves them: examples/http_server.php with --delay-ms=10 (every request waits 10 ms on a
 * timer before its answer: the shape of HttpArena's async profile), under a closed-loop load from
 * bench/flood_client.c (epoll, built here with cc) in several client processes.
 *
 *   php -n -d extension=modules/async.so bench/flood.php [CONNECTIONS]     (default 32000)
 *   DURATION=10            seconds of load counted per measurement
 *   WARMUP=3               seconds of load before those (not counted: the first burst, the JIT)
 *   PACE=4000              the paced run: each connection sends a request every PACE ms
 *   BASELINE=1000          the connection count of the baseline measured in the same run
 *   BENCH_REPS=1           measurements of each (interleaved, the median reported)
 *   PHP_FLAGS="..."        the server's flags (default: opcache with the tracing JIT; "" for none)
 *   ASYNC_SO=path          another build of the module
 *
 * The set-up is the benchmark's own: the server's soft descriptor limit is raised to the hard
 * limit (`ulimit -n` in the sh that execs it), the listen backlog is 4096 (the kernel caps it at
 * net.core.somaxconn), memory_limit is off; each client process holds at most 10,000 connections
 * from its own source address (127.1.R.K: its own 28k ephemeral ports, fresh for each
 * measurement). When the hard limit is below what was asked (setrlimit() cannot raise it without
 * CAP_SYS_RESOURCE), the server holds the most the limit allows: the hard limit less 64
 * descriptors for the server's own (listener, epoll, stdio, the spare). The server runs on CPU 0,
 * the clients on CPU 1 (taskset), when there are two.
 *
 * Printed for the subject and for a baseline of BASELINE connections, and their ratios:
 * connections held, requests/s, p50/p99 latency (send to last byte), the server's RSS growth per
 * connection (VmRSS once all are held and idle, and at the end of the load, less VmRSS before the
 * first connection), and the example's own memory_get_usage() growth per connection (--stats).
 * Both are closed loops (each connection sends its next request as soon as it has the answer), so
 * the server is saturated and a fair one's latency is connections / throughput (Little's law).
 * A third run holds the subject's connections at a rate the server can sustain (each connection
 * one request every PACE ms): its latency against the 10 ms the timer alone takes is the figure
 * of bounded latency.
 */
require __DIR__ . '/common.php';

$asked = (int) ($argv[1] ?? 32000);
$duration = (int) (getenv('DURATION') ?: 10);
$warmup = (int) (getenv('WARMUP') ?: 3);
$pace = (int) (getenv('PACE') ?: 4000);
$baseline = (int) (getenv('BASELINE') ?: 1000);
$reps = bench_reps(1);
$php_flags = getenv('PHP_FLAGS');
$php_flags = $php_flags === false
    ? ['-d', 'zend_extension=opcache', '-d', 'opcache.enable_cli=1', '-d', 'opcache.jit=tracing', '-d', 'opcache.jit_buffer_size=64M']
    : preg_split('/\s+/', trim($php_flags), -1, PREG_SPLIT_NO_EMPTY);
$so = getenv('ASYNC_SO') ?: dirname(__DIR__) . '/modules/async.so';
$example = dirname(__DIR__) . '/examples/http_server.php';
bench_check(is_file($so), "$so not found: build the module first");

const PER_CLIENT = 10000;
const SERVER_OWN_FDS = 64;

bench_header("flood: keep-alive connections held by one server process, 10 ms timer per request", $reps);

// The descriptor limits: the server's soft limit goes up to the hard one, never beyond.
$hard = trim((string) shell_exec('ulimit -Hn'));
$hard = $hard === 'unlimited' ? PHP_INT_MAX : (int) $hard;
$raise = trim((string) shell_exec('sh -c ' . escapeshellarg('ulimit -n ' . ($asked + SERVER_OWN_FDS) . ' && echo ok') . ' 2>&1'));
$held_target = $raise === 'ok' ? $asked : min($asked, $hard - SERVER_OWN_FDS);
$server_nofile = $raise === 'ok' ? $asked + SERVER_OWN_FDS : $hard;
printf("descriptors: hard limit %s per process; raising the soft limit to %d: %s\n", $hard === PHP_INT_MAX ? 'unlimited' : $hard,
    $asked + SERVER_OWN_FDS, $raise === 'ok' ? 'ok' : 'refused (' . $raise . ')');
if ($held_target < $asked) {
    printf("=> %d connections asked, one process can hold at most %d here: the server holds %d (its soft limit = the hard limit %d, %d kept for its own descriptors)\n",
        $asked, $hard - SERVER_OWN_FDS, $held_target, $hard, SERVER_OWN_FDS);
}
printf("backlog 4096 (net.core.somaxconn %s), %d s of load counted after %d s of warm-up, baseline %d connections, server flags: %s\n",
    trim((string) @file_get_contents('/proc/sys/net/core/somaxconn')), $duration, $warmup, $baseline, implode(' ', $php_flags) ?: '(none)');

// The load generator.
$work = sys_get_temp_dir() . '/ext-async-flood-' . getmypid();
@mkdir($work);
register_shutdown_function(fn() => @exec('rm -rf ' . escapeshellarg($work)));
$client_bin = "$work/flood_client";
exec('cc -O2 -o ' . escapeshellarg($client_bin) . ' ' . escapeshellarg(__DIR__ . '/flood_client.c') . ' 2>&1', $out, $rc);
bench_check($rc === 0, 'cannot build bench/flood_client.c: ' . implode("\n", $out));
$pin = bench_cpu_count() >= 2 && trim((string) shell_exec('command -v taskset')) !== '';

function flood_proc(array $cmd, int $nofile, ?int $cpu): array
{
    global $pin;
    $prefix = $pin && $cpu !== null ? ['taskset', '-c', (string) $cpu] : [];
    $full = array_merge(['sh', '-c', 'ulimit -n "$0" && exec "$@"', (string) $nofile], $prefix, $cmd);
    $proc = proc_open($full, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    bench_check(is_resource($proc), 'cannot start ' . implode(' ', $cmd));
    return [$proc, $pipes];
}

function flood_line($pipe, float $seconds): ?string
{
    $deadline = microtime(true) + $seconds;
    while (($left = $deadline - microtime(true)) > 0) {
        $r = [$pipe];
        $w = $e = null;
        if (@stream_select($r, $w, $e, (int) $left, (int) (($left - (int) $left) * 1e6)) > 0) {
            $line = fgets($pipe);
            return $line === false ? null : rtrim($line, "\n");
        }
    }
    return null;
}

function flood_rss_kib(int $pid): int
{
    $status = (string) @file_get_contents("/proc/$pid/status");
    return preg_match('/^VmRSS:\s+(\d+)\s+kB/m', $status, $m) ? (int) $m[1] : 0;
}

/* The server's latest --stats line, read without waiting (fields => values). */
function flood_stats($pipe, array $last): array
{
    stream_set_blocking($pipe, false);
    while (($line = fgets($pipe)) !== false) {
        if (preg_match_all('/(\w+)=(\d+)/', $line, $m)) {
            $last = array_map('intval', array_combine($m[1], $m[2]));
        }
    }
    stream_set_blocking($pipe, true);
    return $last;
}

/* Latency in ms at quantile $q of a histogram (µs bucket => count). */
function flood_quantile(array $hist, float $q): float
{
    ksort($hist);
    $total = array_sum($hist);
    $seen = 0;
    foreach ($hist as $us => $n) {
        $seen += $n;
        if ($seen >= $q * $total) {
            return $us / 1000;
        }
    }
    return NAN;
}

/* One measurement: a fresh server, $n connections held, then $duration s of load (closed loop, or
 * one request per connection every $pace_ms). */
function flood_measure(int $n, int $run, int $pace_ms = 0): array
{
    global $php_flags, $so, $example, $server_nofile, $client_bin, $duration, $warmup;
    [$server, $spipes] = flood_proc(array_merge([PHP_BINARY, '-n'], $php_flags, ['-d', 'memory_limit=-1',
        '-d', "extension=$so", $example, '127.0.0.1:0', '--delay-ms=10', '--backlog=4096', '--stats=200']), $server_nofile, 0);
    $line = flood_line($spipes[1], 20);
    if ($line === null || preg_match('/^listening on 127\.0\.0\.1:(\d+)$/', $line, $m) !== 1) {
        bench_check(false, 'the server did not start: ' . $line . stream_get_contents($spipes[2]));
    }
    $port = $m[1];
    $pid = proc_get_status($server)['pid'];
    usleep(300000);
    $rss0 = flood_rss_kib($pid);

    // Clients: at most PER_CLIENT connections each, from their own source address.
    $clients = [];
    for ($k = 0, $left = $n; $left > 0; $k++, $left -= PER_CLIENT) {
        $share = min(PER_CLIENT, $left);
        $clients[] = flood_proc([$client_bin, '127.0.0.1', $port, sprintf('127.1.%d.%d', $run % 250, $k + 1),
            (string) $share, (string) ($duration * 1000), (string) ($warmup * 1000), (string) $pace_ms], $share + 64, 1);
    }
    $t = hrtime(true);
    $held = $failed = 0;
    foreach ($clients as [$proc, $pipes]) {
        $line = flood_line($pipes[1], 300);
        if ($line === null || preg_match('/^connected (\d+) (\d+)$/', $line, $m) !== 1) {
            bench_check(false, 'a client did not connect: ' . $line . stream_get_contents($pipes[2]));
        }
        $held += (int) $m[1];
        $failed += (int) $m[2];
    }
    $ramp = (hrtime(true) - $t) / 1e9;
    $stats = [];
    for ($i = 0; $i < 100 && (($stats['idle'] ?? -1) !== $held); $i++) {
        usleep(100000);
        $stats = flood_stats($spipes[1], $stats);
    }
    $rss_idle = flood_rss_kib($pid);
    $php_idle = $stats;

    foreach ($clients as [$proc, $pipes]) {
        fwrite($pipes[0], "go\n");
    }
    $hist = [];
    $requests = $errors = $held_end = 0;
    foreach ($clients as [$proc, $pipes]) {
        $result = flood_line($pipes[1], $warmup + $duration + 60);
        $h = flood_line($pipes[1], 30);
        if ($result === null || preg_match('/^result requests=(\d+) errors=(\d+) held=(\d+)$/', $result, $m) !== 1
            || $h === null || !str_starts_with($h, 'hist')) {
            bench_check(false, 'a client gave no result: ' . $result . stream_get_contents($pipes[2]));
        }
        $requests += (int) $m[1];
        $errors += (int) $m[2];
        $held_end += (int) $m[3];
        foreach (explode(' ', substr($h, 5)) as $pair) {
            if ($pair !== '') {
                [$us, $count] = explode(':', $pair);
                $hist[(int) $us] = ($hist[(int) $us] ?? 0) + (int) $count;
            }
        }
    }
    $rss_load = flood_rss_kib($pid);
    $alive = proc_get_status($server)['running'];
    foreach ($clients as [$proc, $pipes]) {
        foreach ($pipes as $p) {
            fclose($p);
        }
        proc_close($proc);
    }
    $stats = flood_stats($spipes[1], $stats);
    proc_terminate($server);
    $err = $alive ? "" : stream_get_contents($spipes[2]);
    foreach ($spipes as $p) {
        fclose($p);
    }
    proc_close($server);
    bench_check($alive, "the server died under $n connections: $err");
    bench_check($requests > 0, "no request was answered with $n connections");
    return [
        'asked' => $n, 'held' => $held, 'failed' => $failed, 'ramp_s' => $ramp, 'held_end' => $held_end,
        'rps' => $requests / $duration, 'errors' => $errors,
        'p50' => flood_quantile($hist, 0.50), 'p99' => flood_quantile($hist, 0.99), 'max' => max(array_keys($hist)) / 1000,
        'rss_idle' => ($rss_idle - $rss0) * 1024 / max(1, $held), 'rss_load' => ($rss_load - $rss0) * 1024 / max(1, $held),
        'php_idle' => $php_idle['per_connection'] ?? 0, 'refused' => $stats['refused'] ?? 0, 'stats_open' => $php_idle['connections'] ?? 0,
    ];
}

function flood_print(string $label, array $r): void
{
    printf("%-9s %6d held of %d (%d failed, server counted %d, ramp %.1f s), %d still held after the load, %d lost during it\n",
        $label, $r['held'], $r['asked'], $r['failed'], $r['stats_open'], $r['ramp_s'], $r['held_end'], $r['errors']);
    printf("%-9s %8.0f req/s, latency p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", '', $r['rps'], $r['p50'], $r['p99'], $r['max']);
    printf("%-9s RSS per connection %.1f KiB idle, %.1f KiB under load; PHP memory per idle connection %.1f KiB\n", '',
        $r['rss_idle'] / 1024, $r['rss_load'] / 1024, $r['php_idle'] / 1024);
}

$subjects = $bases = $paced = [];
for ($rep = 0; $rep < $reps; $rep++) {
    $order = $rep % 2 === 0 ? ['base', 'subject', 'paced'] : ['paced', 'subject', 'base'];
    foreach ($order as $which) {
        if ($which === 'base') {
            $bases[] = $r = flood_measure($baseline, $rep * 3);
            flood_print('baseline', $r);
        } elseif ($which === 'subject') {
            $subjects[] = $r = flood_measure($held_target, $rep * 3 + 1);
            flood_print('subject', $r);
        } else {
            $paced[] = $r = flood_measure($held_target, $rep * 3 + 2, $pace);
            flood_print('paced', $r);
        }
    }
}
$median = fn(array $rs, string $k) => bench_median(array_column($rs, $k));
$s = ['held' => $median($subjects, 'held'), 'rps' => $median($subjects, 'rps'), 'p50' => $median($subjects, 'p50'),
    'p99' => $median($subjects, 'p99'), 'rss_idle' => $median($subjects, 'rss_idle'), 'rss_load' => $median($subjects, 'rss_load'),
    'php_idle' => $median($subjects, 'php_idle'), 'errors' => $median($subjects, 'errors')];
$b = ['rps' => $median($bases, 'rps'), 'p50' => $median($bases, 'p50'), 'p99' => $median($bases, 'p99')];
$p = ['held' => $median($paced, 'held'), 'rps' => $median($paced, 'rps'), 'p50' => $median($paced, 'p50'),
    'p99' => $median($paced, 'p99'), 'errors' => $median($paced, 'errors')];
printf("\nflood: %d connections held by one process, closed loop: %.0f req/s (%.2fx the %d-connection baseline's %.0f), p50 %.1f ms, p99 %.1f ms (%.2fx / %.2fx the baseline's %.1f / %.1f ms; connections / throughput = %.1f ms)\n",
    $s['held'], $s['rps'], $s['rps'] / $b['rps'], $baseline, $b['rps'], $s['p50'], $s['p99'], $s['p50'] / $b['p50'], $s['p99'] / $b['p99'],
    $b['p50'], $b['p99'], 1000 * $s['held'] / $s['rps']);
printf("flood: %d connections, each a request every %d ms: %.0f req/s (%.0f offered), p50 %.1f ms, p99 %.1f ms (%.2fx / %.2fx the 10 ms timer)\n",
    $p['held'], $pace, $p['rps'], 1000 * $p['held'] / $pace, $p['p50'], $p['p99'], $p['p50'] / 10, $p['p99'] / 10);
printf("flood: RSS per connection %.1f KiB held idle, %.1f KiB under load; PHP memory per idle connection %.1f KiB\n",
    $s['rss_idle'] / 1024, $s['rss_load'] / 1024, $s['php_idle'] / 1024);
bench_goal('flood (held)', $s['held'] >= $held_target && $s['errors'] == 0 && $p['held'] >= $held_target && $p['errors'] == 0,
    sprintf('%d of %d held, %d lost under load; paced: %d held, %d lost', $s['held'], $held_target, $s['errors'], $p['held'], $p['errors']));
// Bounded latency: at a sustainable rate every answer comes within 10x the timer; saturated, p99
// within 2x p50 says no connection was starved.
bench_goal('flood (latency)', $p['p99'] <= 100 && $s['p99'] <= 2 * $s['p50'],
    sprintf('paced p99 %.1f ms <= 100 ms; closed loop p99 %.1f ms <= 2 x p50 %.1f ms', $p['p99'], $s['p99'], $s['p50']));
bench_goal('flood (memory)', $s['php_idle'] <= 16384, sprintf('%.1f KiB of PHP memory per idle connection <= 16 KiB', $s['php_idle'] / 1024));
