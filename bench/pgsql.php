<?php
/*
 * PostgreSQL's two PHP clients (ext/pgsql, pdo_pgsql) in coroutines, against a private local
 * PostgreSQL (tests/inc/servers.inc starts it, as the tests do).
 *
 * The work, per driver: 64 tasks, each on its own connection (opened before the clock starts)
 * running 1,000 short queries (`SELECT 1`, the answer checked), run three ways:
 *   concurrent  64 coroutines at once                                   -> queries/s
 *   sequential  the same 64 tasks one after another, inside a coroutine -> µs per query
 *   stock       the same 64 tasks one after another, ext-async never used (plain blocking PHP)
 * Goal: sequential / stock <= 1.1 per query (what the hook adds to a round trip). The concurrent
 * case is printed against the sequential one run the same way (not pinned): it can only scale
 * with the cores the server and PHP share (2 here), so it is a figure, not a goal.
 *
 * Every measurement runs in a fresh child process of this script (same binary and flags): once
 * a process has used the scheduler its main flow is a coroutine, so the stock baseline must run in
 * a process that never touches ext-async. Subject and baseline alternate, repetition by
 * repetition; the median of BENCH_REPS (default 3) is printed with the child's CPU time.
 * The sequential and stock runs pin PHP and the server's backends to one CPU (taskset; BENCH_PIN=0
 * pins nothing): on this VM a wake-up across vCPUs costs tens of µs, more than a whole query, and
 * which CPU each side lands on changes from run to run. The concurrent runs, and a second
 * sequential run they are compared with, are not pinned.
 *
 *   php -n -d extension=modules/async.so -d extension=pgsql -d extension=pdo -d extension=pdo_pgsql \
 *       bench/pgsql.php [tasks] [queries_per_task]
 */
declare(strict_types=1);

require __DIR__ . '/common.php';
require __DIR__ . '/../tests/inc/servers.inc';

use function Async\{spawn, await, await_all_or_fail};

/* ---------------------------------------------------------------------------------------------
 * Child mode: php ... bench/pgsql.php child MODE DRIVER PORT TASKS PER
 * Prints ns=, cpu_ns=, queries=.
 * ------------------------------------------------------------------------------------------- */

function connect_one(string $driver, int $port)
{
    return $driver === 'pgsql'
        ? pg_connect("host=127.0.0.1 port=$port user=postgres dbname=postgres", PGSQL_CONNECT_FORCE_NEW)
        : new PDO("pgsql:host=127.0.0.1;port=$port;dbname=postgres", 'postgres', '');
}

/* One task's queries on its connection: how many answers were right. */
function task(string $driver, $conn, int $per): int
{
    $ok = 0;
    if ($driver === 'pgsql') {
        for ($i = 0; $i < $per; $i++) {
            $ok += pg_fetch_result(pg_query($conn, 'SELECT 1'), 0, 0) === '1';
        }
    } else {
        for ($i = 0; $i < $per; $i++) {
            $ok += $conn->query('SELECT 1')->fetchColumn() === 1;
        }
    }
    return $ok;
}

function cpu_ns(): float
{
    $u = getrusage();
    return ($u['ru_utime.tv_sec'] + $u['ru_stime.tv_sec']) * 1e9 + ($u['ru_utime.tv_usec'] + $u['ru_stime.tv_usec']) * 1e3;
}

/* The connections are made first, untimed (a connect is a fork of the server and ~15 ms here:
 * it would hide the queries), then the queries are timed. */
function run_mode(string $mode, string $driver, int $port, int $tasks, int $per): array
{
    $conns = [];
    for ($t = 0; $t < $tasks; $t++) {
        $conns[] = connect_one($driver, $port);
    }
    $cpu0 = cpu_ns();
    $t0 = hrtime(true);
    $ok = 0;
    if ($mode === 'concurrent') {
        $cs = [];
        foreach ($conns as $conn) {
            $cs[] = spawn(fn () => task($driver, $conn, $per));
        }
        $ok = array_sum(await_all_or_fail($cs));
    } else {
        foreach ($conns as $conn) {
            $ok += task($driver, $conn, $per);
        }
    }
    return [hrtime(true) - $t0, cpu_ns() - $cpu0, $ok];
}

if (($argv[1] ?? '') === 'child') {
    [, , $mode, $driver, $port, $tasks, $per] = $argv;
    $args = [$mode, $driver, (int) $port, (int) $tasks, (int) $per];
    [$ns, $cpu, $ok] = $mode === 'stock' ? run_mode(...$args) : await(spawn(fn () => run_mode(...$args)));
    if ($mode === 'stock') {
        $stats = Async\runtime_stats();
        bench_check($stats['coroutines_total'] === 0, 'the stock baseline ran coroutines');
    }
    printf("ns=%d\ncpu_ns=%.0f\nqueries=%d\n", $ns, $cpu, $ok);
    exit(0);
}

/* ---------------------------------------------------------------------------------------------
 * Parent
 * ------------------------------------------------------------------------------------------- */

foreach (['pgsql', 'pdo_pgsql'] as $ext) {
    if (!extension_loaded($ext)) {
        fwrite(STDERR, "the $ext extension is not loaded (-d extension=$ext; Debian: php8.x-pgsql)\n");
        exit(2);
    }
}
if (servers_postgres_bin() === null) {
    fwrite(STDERR, "no PostgreSQL server is installed (postgresql-15; scripts/setup.sh installs it)\n");
    exit(2);
}

$tasks = (int) ($argv[1] ?? 64);
$per = bench_scale((int) ($argv[2] ?? 1000));
$reps = bench_reps(3);

function find_taskset(): ?string
{
    foreach (explode(':', (string) getenv('PATH')) as $dir) {
        if ($dir !== '' && is_executable("$dir/taskset")) {
            return "$dir/taskset";
        }
    }
    return null;
}

$db = servers_start_postgres(['settings' => ['max_connections' => '200']]);
$taskset = getenv('BENCH_PIN') === '0' ? null : find_taskset();
$cpu = (string) (bench_cpu_count() - 1);

/* One child; $pin: PHP and the server's future backends on one CPU. */
function measure(string $mode, string $driver, bool $pin): array
{
    global $db, $tasks, $per, $taskset, $cpu;
    if ($taskset !== null) {
        /* the postmaster's affinity is what each new backend inherits */
        exec(escapeshellarg($taskset) . ' -p -c ' . ($pin ? $cpu : '0-' . $cpu) . ' ' . (int) $db['pid'] . ' >/dev/null');
    }
    $cmd = bench_self_command();
    if ($pin && $taskset !== null) {
        $cmd = array_merge([$taskset, '-c', $cpu], $cmd);
    }
    $args = array_map('strval', ['child', $mode, $driver, $db['port'], $tasks, $per]);
    $proc = proc_open(array_merge($cmd, $args), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    $status = proc_close($proc);
    bench_check($status === 0, "child $mode $driver failed ($status): $out $err");
    $kv = bench_parse_kv($out);
    bench_check((int) ($kv['queries'] ?? 0) === $tasks * $per, "$mode $driver: {$kv['queries']} of " . ($tasks * $per) . ' answers right');
    return $kv;
}

bench_header("PostgreSQL: $tasks tasks x $per queries (SELECT 1), per driver; PostgreSQL " . basename(dirname(servers_postgres_bin())), $reps);
echo $taskset !== null ? "sequential and stock runs pinned to CPU $cpu with the server's backends; concurrent runs not pinned\n"
    : "nothing pinned\n";
$n = $tasks * $per;
foreach (['pgsql', 'pdo'] as $driver) {
    $seq = $stock = $conc = $seqCpu = $stockCpu = $free = [];
    for ($r = 0; $r < $reps; $r++) {
        $s = measure('stock', $driver, true);
        $q = measure('sequential', $driver, true);
        $c = measure('concurrent', $driver, false);
        $f = measure('sequential', $driver, false);
        $free[] = $n / ($f['ns'] / 1e9);
        $stock[] = $s['ns'] / $n / 1000;
        $stockCpu[] = $s['cpu_ns'] / $n / 1000;
        $seq[] = $q['ns'] / $n / 1000;
        $seqCpu[] = $q['cpu_ns'] / $n / 1000;
        $conc[] = $n / ($c['ns'] / 1e9);
    }
    $ratio = bench_median($seq) / bench_median($stock);
    $cpuRatio = bench_median($seqCpu) / bench_median($stockCpu);
    $name = $driver === 'pgsql' ? 'ext/pgsql' : 'pdo_pgsql';
    printf("%s stock (blocking, no coroutine): %.1f µs per query (%s), PHP's CPU %.1f µs\n", $name,
        bench_median($stock), bench_spread($stock, 1), bench_median($stockCpu));
    printf("%s sequential in a coroutine:      %.1f µs per query (%s), PHP's CPU %.1f µs; ratio %.3f (CPU %.3f)\n", $name,
        bench_median($seq), bench_spread($seq, 1), bench_median($seqCpu), $ratio, $cpuRatio);
    printf("%s %d coroutines at once:          %.0f queries/s (%s), %.2fx one coroutine's %.0f queries/s (neither pinned)\n",
        $name, $tasks, bench_median($conc), bench_spread($conc, 0), bench_median($conc) / bench_median($free), bench_median($free));
    bench_goal("$name sequential per-query time <= 1.1x stock", $ratio <= 1.1, sprintf('%.3f', $ratio));
}
