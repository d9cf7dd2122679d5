<?php
/*
 * ext/curl in coroutines against plain ext/curl, both talking to a local HTTP/1.1 keep-alive
 * server (this script in "server" mode: one coroutine per connection, answers the query's body=).
 *
 *  (a) 10,000 requests from 100 coroutines, each owning one CurlHandle it reuses (100 curl_exec()
 *      each): requests/s — against the same 10,000 requests through one curl_multi of 100 easy
 *      handles in plain PHP (each handle re-added when it completes; curl_multi_exec() +
 *      curl_multi_select() loop). Goal: ratio coroutines/curl_multi >= 0.9.
 *  (b) sequential curl_exec() round trips on one reused handle inside a coroutine: µs per round
 *      trip — against the same blocking curl_exec() loop outside any coroutine.
 *      Goal: ratio coroutine/blocking <= 1.2.
 *
 * Every measurement runs in a fresh child process of this script (same binary and flags): once a
 * process has used the scheduler, its main flow is the main coroutine and curl_exec() /
 * curl_multi_select() would take the coroutine path, so the baselines must run in processes that
 * never touch ext-async. Subject and baseline children alternate, repetition by repetition.
 * Connections are opened by an untimed warm-up request on every handle, so the timed part is
 * keep-alive traffic only. The server and the clients share one CPU (taskset, when available):
 * on this VM a server and a client on different CPUs settle in one of two regimes, run by run
 * (see bench/README.md); BENCH_PIN=split puts the server on CPU 0 and the clients on CPU 1
 * instead, BENCH_PIN=0 pins nothing.
 *
 * Checked: every response body (each request asks for a distinct one), the number of requests
 * and of connections the server saw (one per handle: keep-alive reused, nothing re-sent).
 *
 *   php -n -d extension=modules/async.so -d extension=curl bench/curl.php [requests_a] [round_trips_b]
 */
declare(strict_types=1);

/* ---------------------------------------------------------------------------------------------
 * Server mode: php ... bench/curl.php server  (prints "listening on HOST:PORT", exits when its
 * stdin closes). GET only; answers the value of body= in the query ("ok" without one); /stats
 * answers "requests=N connections=M" (counted before this request).
 * ------------------------------------------------------------------------------------------- */
if (($argv[1] ?? '') === 'server') {
    if (!extension_loaded('async')) {
        fwrite(STDERR, "server: ext-async is not loaded\n");
        exit(2);
    }
    // No stream timeout timer armed and stopped around every wait: the server should cost as
    // little as possible, it serves subject and baseline alike.
    ini_set('default_socket_timeout', '-1');
    $requests = 0;
    $connections = 0;
    $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
        stream_context_create(['socket' => ['backlog' => 1024, 'tcp_nodelay' => true]]));
    if ($server === false) {
        fwrite(STDERR, "server: cannot listen: $errstr\n");
        exit(1);
    }
    echo 'listening on ', stream_socket_get_name($server, false), "\n";
    Async\spawn(function () {
        do {
            $r = [STDIN];
            $w = $e = null;
            stream_select($r, $w, $e, null);
        } while (fgets(STDIN) !== false);
        exit(0);
    });
    $serve = function ($conn) use (&$requests, &$connections): void {
        stream_set_write_buffer($conn, 0);
        $buffer = '';
        try {
            while (true) {
                while (($end = strpos($buffer, "\r\n\r\n")) === false) {
                    $chunk = fread($conn, 65536);
                    if ($chunk === false || $chunk === '') {
                        return;
                    }
                    $buffer .= $chunk;
                }
                $line = substr($buffer, 0, strpos($buffer, "\r\n"));
                $buffer = substr($buffer, $end + 4);
                $target = explode(' ', $line)[1] ?? '/';
                if (str_starts_with($target, '/stats')) {
                    $body = "requests=$requests connections=$connections";
                } else {
                    $requests++;
                    $p = strpos($target, 'body=');
                    $body = $p === false ? 'ok' : rawurldecode(substr($target, $p + 5));
                }
                if (fwrite($conn, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " . strlen($body)
                    . "\r\n\r\n" . $body) === false) {
                    return;
                }
            }
        } catch (Throwable) {
            // a client that went away mid-request
        } finally {
            @fclose($conn);
        }
    };
    while (true) {
        $conn = @stream_socket_accept($server, -1);
        if ($conn === false) {
            continue;
        }
        $connections++;
        Async\spawn($serve, $conn);
    }
}

require __DIR__ . '/common.php';

if (!extension_loaded('curl')) {
    $so = rtrim((string) ini_get('extension_dir'), '/') . '/curl.' . PHP_SHLIB_SUFFIX;
    echo is_file($so)
        ? "SKIP: ext/curl is installed ($so) but not loaded: run with -d extension=curl (bench/run.sh does)\n"
        : "SKIP: ext/curl is not installed (php8.2-curl; scripts/setup.sh installs it): nothing to measure\n";
    exit(0);
}

use function Async\{spawn, await, await_all_or_fail};

/** Expected body of request $i of handle $k. */
function body_for(int $k, int $i): string
{
    return "h$k-r$i";
}

function new_handles(int $n): array
{
    $handles = [];
    for ($k = 0; $k < $n; $k++) {
        $ch = curl_init();
        curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_HEADER => false]);
        $handles[$k] = $ch;
    }
    return $handles;
}

/** CPU time (user + system) this process has used, in ns. */
function self_cpu_ns(): float
{
    $ru = getrusage();
    return ($ru['ru_utime.tv_sec'] + $ru['ru_stime.tv_sec']) * 1e9 + ($ru['ru_utime.tv_usec'] + $ru['ru_stime.tv_usec']) * 1e3;
}

/** Runs $fn() timed: [wall ns, $fn()'s result, CPU ns of this process meanwhile]. */
function timed(callable $fn): array
{
    $c0 = self_cpu_ns();
    $t0 = hrtime(true);
    $result = $fn();
    $ns = hrtime(true) - $t0;
    return [$ns, $result, self_cpu_ns() - $c0];
}

/* ---------------------------------------------------------------------------------------------
 * Client modes (one measurement per process; print key=value lines for the parent)
 * ------------------------------------------------------------------------------------------- */

/** One curl_exec() with the body checked; returns 1 when right. */
function exec_one(CurlHandle $ch, string $base, int $k, int $i): int
{
    $want = body_for($k, $i);
    curl_setopt($ch, CURLOPT_URL, "$base/?body=$want");
    $got = curl_exec($ch);
    return $got === $want ? 1 : 0;
}

/** (a) subject: $h coroutines, each $per curl_exec() on its own handle. Returns [ns, ok, cpu ns]. */
function client_coroutines(string $base, int $h, int $per): array
{
    $handles = new_handles($h);
    $run = function (int $from, int $to) use ($handles, $base): int {
        $tasks = [];
        foreach ($handles as $k => $ch) {
            $tasks[] = spawn(function () use ($ch, $k, $from, $to, $base): int {
                $ok = 0;
                for ($i = $from; $i < $to; $i++) {
                    $ok += exec_one($ch, $base, $k, $i);
                }
                return $ok;
            });
        }
        return array_sum(await_all_or_fail($tasks));
    };
    $warm = $run(0, 1);                      // opens the connections
    bench_check($warm === $h, "coroutines warm-up: $warm of $h bodies right");
    return timed(fn() => $run(1, $per + 1));
}

/** (a) baseline: one curl_multi, $h easy handles re-added as they complete. Returns [ns, ok, cpu ns]. */
function client_multi(string $base, int $h, int $per): array
{
    $handles = new_handles($h);
    $index = [];
    foreach ($handles as $k => $ch) {
        $index[spl_object_id($ch)] = $k;
    }
    $mh = curl_multi_init();
    // libcurl sizes the multi's connection cache at 4 x the handles added *at that moment*: as
    // the handles are removed at the end of a run it would close idle connections, and the next
    // run would reconnect. A fixed size keeps one connection per handle, as on the coroutine side.
    curl_multi_setopt($mh, CURLMOPT_MAXCONNECTS, $h);
    $run = function (int $from, int $to) use ($mh, $handles, $index, $base): int {
        $next = [];
        foreach ($handles as $k => $ch) {
            $next[$k] = $from;
            curl_setopt($ch, CURLOPT_URL, "$base/?body=" . body_for($k, $from));
            curl_multi_add_handle($mh, $ch);
        }
        $total = count($handles) * ($to - $from);
        $done = 0;
        $ok = 0;
        while ($done < $total) {
            do {
                $status = curl_multi_exec($mh, $active);
            } while ($status === CURLM_CALL_MULTI_PERFORM);
            bench_check($status === CURLM_OK, "curl_multi_exec() returned $status");
            $readded = false;
            while (($info = curl_multi_info_read($mh)) !== false) {
                $ch = $info['handle'];
                $k = $index[spl_object_id($ch)];
                $i = $next[$k];
                $ok += ($info['result'] === CURLE_OK && curl_multi_getcontent($ch) === body_for($k, $i)) ? 1 : 0;
                $done++;
                curl_multi_remove_handle($mh, $ch);
                if (++$next[$k] < $to) {
                    curl_setopt($ch, CURLOPT_URL, "$base/?body=" . body_for($k, $next[$k]));
                    curl_multi_add_handle($mh, $ch);
                    $readded = true;
                }
            }
            if ($done < $total && !$readded) {
                curl_multi_select($mh, 1.0);
            }
        }
        return $ok;
    };
    $warm = $run(0, 1);
    bench_check($warm === $h, "curl_multi warm-up: $warm of $h bodies right");
    return timed(fn() => $run(1, $per + 1));
}

/** (b): $n sequential curl_exec() on one handle, in a coroutine or not. Returns [ns, ok, cpu ns]. */
function client_sequential(string $base, int $n, bool $coroutine): array
{
    [$ch] = new_handles(1);
    $loop = function (int $from, int $to) use ($ch, $base): int {
        $ok = 0;
        for ($i = $from; $i < $to; $i++) {
            $ok += exec_one($ch, $base, 0, $i);
        }
        return $ok;
    };
    if ($coroutine) {
        return await(spawn(function () use ($loop, $n) {
            bench_check($loop(0, 1) === 1, 'coroutine warm-up: wrong body');
            return timed(fn() => $loop(1, $n + 1));
        }));
    }
    bench_check($loop(0, 1) === 1, 'blocking warm-up: wrong body');
    return timed(fn() => $loop(1, $n + 1));
}

if (($argv[1] ?? '') === 'client') {
    [, , $mode, $base] = $argv;
    $a = (int) $argv[4];
    $b = (int) ($argv[5] ?? 0);
    [$ns, $ok, $cpu] = match ($mode) {
        'coroutines' => client_coroutines($base, $a, $b),
        'multi' => client_multi($base, $a, $b),
        'co_exec' => client_sequential($base, $a, true),
        'exec' => client_sequential($base, $a, false),
    };
    // Main must not have become a coroutine in the baselines: they measure stock ext/curl.
    if ($mode === 'multi' || $mode === 'exec') {
        $stats = function_exists('Async\runtime_stats') ? Async\runtime_stats() : [];
        bench_check(($stats['coroutines_total'] ?? 0) === 0, "$mode baseline ran coroutines");
    }
    echo "ns=$ns\nok=$ok\ncpu=$cpu\n";
    exit(0);
}

/* ---------------------------------------------------------------------------------------------
 * Parent: starts the server, runs the children, checks and reports
 * ------------------------------------------------------------------------------------------- */

function find_taskset(): ?string
{
    foreach (explode(':', (string) getenv('PATH')) as $dir) {
        if ($dir !== '' && is_executable("$dir/taskset")) {
            return "$dir/taskset";
        }
    }
    return null;
}

/**
 * Where the server and the clients run: [server command prefix, client command prefix, description].
 * BENCH_PIN=same (default): both on the last CPU; split: server on CPU 0, clients on CPU 1 (as
 * bench/http.sh); idle: same CPU, the server as SCHED_IDLE, so it answers only when the client
 * sleeps and every request waits on the reactor (for (b); (a)'s curl_multi loop starves it);
 * 0: not pinned. See bench/README.md for why "same" is the default.
 */
function pinning(): array
{
    $mode = getenv('BENCH_PIN');
    $mode = ($mode === false || $mode === '') ? 'same' : $mode;
    $taskset = find_taskset();
    $cpus = bench_cpu_count();
    if ($mode === '0' || $taskset === null || $cpus < 2) {
        return [[], [], 'not pinned' . ($mode !== '0' ? ' (no taskset or one CPU)' : '')];
    }
    if ($mode === 'split') {
        return [[$taskset, '-c', '0'], [$taskset, '-c', '1'], 'server on CPU 0, clients on CPU 1 (BENCH_PIN=split)'];
    }
    if ($mode === 'idle' && is_executable('/usr/bin/chrt')) {
        $last = (string) ($cpus - 1);
        return [[$taskset, '-c', $last, '/usr/bin/chrt', '--idle', '0'], [$taskset, '-c', $last],
            "server (SCHED_IDLE) and clients on CPU $last (BENCH_PIN=idle: every request waits on the reactor)"];
    }
    if ($mode !== 'same') {
        fwrite(STDERR, "BENCH_PIN must be same, split, idle or 0\n");
        exit(2);
    }
    $last = (string) ($cpus - 1);
    return [[$taskset, '-c', $last], [$taskset, '-c', $last], "server and clients on CPU $last (BENCH_PIN=same)"];
}

/** CPU time (user + system) of a process in ns, from /proc/PID/stat. */
function cpu_ns(int $pid): float
{
    $stat = (string) @file_get_contents("/proc/$pid/stat");
    $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
    return ((int) ($fields[11] ?? 0) + (int) ($fields[12] ?? 0)) * 1e9 / 100; // USER_HZ = 100
}

/** Voluntary context switches of a process (how often it went to sleep), from /proc/PID/status. */
function sleeps(int $pid): int
{
    $status = (string) @file_get_contents("/proc/$pid/status");
    return preg_match('/^voluntary_ctxt_switches:\s+(\d+)/m', $status, $m) ? (int) $m[1] : 0;
}

/** Runs one client child; a wrong result in it fails this script the same way. */
function run_client(array $prefix, array $args): array
{
    $cmd = array_merge($prefix, bench_self_command(), ['client'], $args);
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    if (!is_resource($proc)) {
        throw new RuntimeException('proc_open failed');
    }
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    $status = proc_close($proc);
    if ($status !== 0 || $err !== '') {
        $shown = implode(' ', array_map('escapeshellarg', $cmd));
        fwrite(STDERR, "CHILD FAILED (exit status $status): $shown\n--- stdout ---\n$out\n--- stderr ---\n$err\n");
        echo "CHILD FAILED (exit status $status): $shown\n";
        exit($status === 3 ? 3 : 4);
    }
    return bench_parse_kv($out);
}

/** [requests, connections] the server has seen. */
function server_stats(string $base): array
{
    $ch = curl_init("$base/stats");
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    $got = curl_exec($ch);
    curl_close($ch);
    bench_check(is_string($got) && preg_match('/^requests=(\d+) connections=(\d+)$/', $got, $m) === 1,
        'server /stats answered ' . var_export($got, true));
    return [(int) $m[1], (int) $m[2]];
}

$handles = 100;
$total = bench_scale((int) ($argv[1] ?? 10000));
$per = max(1, intdiv($total, $handles));
$total = $per * $handles;
$sequential = bench_scale((int) ($argv[2] ?? 2000));

[$serverPin, $clientPin, $pinned] = pinning();
$serverCmd = array_merge($serverPin, bench_self_command(), ['server']);
$server = proc_open($serverCmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $serverPipes);
if (!is_resource($server)) {
    throw new RuntimeException('cannot start the server');
}
$line = fgets($serverPipes[1]);
if ($line === false || !preg_match('/listening on (127\.0\.0\.1:\d+)/', $line, $m)) {
    fwrite(STDERR, "the server did not start: $line" . stream_get_contents($serverPipes[2]) . "\n");
    exit(4);
}
$base = "http://$m[1]";
$serverPid = proc_get_status($server)['pid'];
register_shutdown_function(function () use ($server, $serverPipes) {
    fclose($serverPipes[0]);                 // the server exits when its stdin closes
    proc_close($server);
});

bench_header("ext/curl: coroutines vs plain curl ($total requests from $handles handles; $sequential sequential round trips)");
$cv = curl_version();
printf("libcurl %s; %s; every measurement in a fresh client process\n", $cv['version'], $pinned);

/**
 * Runs one measurement and checks what the server saw.
 * Returns [wall ns, client CPU ns, server CPU ns (10 ms ticks), server sleeps]; the client figures
 * are the timed part's, the server's cover the whole child (warm-up included: one request per handle).
 */
function measure(string $what, array $clientPin, string $base, int $serverPid, array $args,
    int $expectRequests, int $expectConnections): array
{
    [$req0, $conn0] = server_stats($base);
    $cpu0 = cpu_ns($serverPid);
    $sleeps0 = sleeps($serverPid);
    $r = run_client($clientPin, array_merge([$what, $base], $args));
    $serverCpu = cpu_ns($serverPid) - $cpu0;
    $serverSleeps = sleeps($serverPid) - $sleeps0;
    [$req1, $conn1] = server_stats($base);
    $timed = $expectRequests - $expectConnections;   // one untimed warm-up request per handle
    bench_check((int) ($r['ok'] ?? -1) === $timed, "$what: " . ($r['ok'] ?? '?') . " of $timed bodies right");
    bench_check($req1 - $req0 === $expectRequests, "$what: the server saw " . ($req1 - $req0) . " requests, expected $expectRequests");
    bench_check($conn1 - $conn0 - 1 === $expectConnections,    // - 1: the /stats request's own
        "$what: " . ($conn1 - $conn0 - 1) . " connections for $expectConnections handles (keep-alive not reused)");
    return [(float) $r['ns'], (float) $r['cpu'], $serverCpu, $serverSleeps];
}

/* [wall µs, client CPU µs, server CPU µs, server sleeps] per request, one list per measurement kind */
$results = ['coroutines' => [], 'multi' => [], 'co_exec' => [], 'exec' => []];
$reps = bench_reps();
for ($r = 0; $r < $reps; $r++) {
    // Interleaved, alternating which goes first.
    foreach ([['coroutines', 'multi'], ['co_exec', 'exec']] as $pair) {
        foreach ($r % 2 ? array_reverse($pair) : $pair as $what) {
            [$args, $n, $handlesUsed] = str_ends_with($what, 'exec')
                ? [[$sequential], $sequential, 1] : [[$handles, $per], $total, $handles];
            [$ns, $cpu, $serverCpu, $serverSleeps] = measure($what, $clientPin, $base, $serverPid, $args, $n + $handlesUsed, $handlesUsed);
            $results[$what][] = [$ns / $n / 1000, $cpu / $n / 1000, $serverCpu / $n / 1000, $serverSleeps / $n];
        }
    }
}

$col = fn(string $what, int $i) => array_column($results[$what], $i);
$rps = fn(string $what) => array_map(fn($us) => 1e6 / $us, $col($what, 0));
$cpuLine = fn(string $what) => sprintf('per request: client CPU %.1f µs, server CPU ~%.0f µs, server sleeps %.2f',
    bench_median($col($what, 1)), bench_median($col($what, 2)), bench_median($col($what, 3)));

$co = $rps('coroutines');
$mu = $rps('multi');
$ratioA = bench_median($co) / bench_median($mu);
printf("(a) %d coroutines, one handle each, curl_exec(): %7.0f requests/s (median; %s)  %s\n",
    $handles, bench_median($co), bench_spread($co, 0), $cpuLine('coroutines'));
printf("    curl_multi of %d handles, no coroutines:     %7.0f requests/s (median; %s)  %s\n",
    $handles, bench_median($mu), bench_spread($mu, 0), $cpuLine('multi'));
printf("    ratio coroutines/curl_multi: %.3f (per repetition %s)\n", $ratioA,
    bench_spread(array_map(fn($a, $b) => $a / $b, $co, $mu), 2));
printf("    client CPU per request coroutines/curl_multi: %.3f (informational: the client's own cost, without the server's)\n",
    bench_median($col('coroutines', 1)) / bench_median($col('multi', 1)));
bench_goal('curl_concurrent', $ratioA >= 0.9, sprintf('coroutines/curl_multi %.3f, goal >= 0.9', $ratioA));

$ce = $col('co_exec', 0);
$be = $col('exec', 0);
$ratioB = bench_median($ce) / bench_median($be);
printf("(b) curl_exec() in a coroutine, one handle:      %7.2f µs per round trip (median; %s)  %s\n",
    bench_median($ce), bench_spread($ce, 2), $cpuLine('co_exec'));
printf("    blocking curl_exec(), no coroutine:          %7.2f µs per round trip (median; %s)  %s\n",
    bench_median($be), bench_spread($be, 2), $cpuLine('exec'));
printf("    ratio coroutine/blocking: %.3f (per repetition %s)\n", $ratioB,
    bench_spread(array_map(fn($a, $b) => $a / $b, $ce, $be), 2));
printf("    client CPU per round trip coroutine/blocking: %.3f (informational)\n",
    bench_median($col('co_exec', 1)) / bench_median($col('exec', 1)));
bench_goal('curl_exec_round_trip', $ratioB <= 1.2, sprintf('coroutine/blocking %.3f, goal <= 1.2', $ratioB));
