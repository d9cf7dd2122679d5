<?php
/*
 * One pooled PDO shared by many coroutines against the pre-fork way, on a private MariaDB and a
 * private PostgreSQL (tests/inc/servers.inc starts them, as the tests do).
 *
 * A "request" is what a handler does per request: prepare() a SELECT of 50 rows, execute(),
 * fetchAll(), let the statement go. Run three ways, each in a fresh child process:
 *   pool, cache off  256 coroutines x 200 requests through ONE PDO with PDO::ATTR_POOL_MAX 16
 *   pool, cache on   the same with PDO::ATTR_POOL_STMT_CACHE_SIZE 16 (a server-side prepare per
 *                    connection, not per request)
 *   prefork          16 worker processes, each with one persistent PDO and its statement prepared
 *                    once, sharing the same 51,200 requests (what php-fpm's workers do)
 * Native prepares everywhere (PDO::ATTR_EMULATE_PREPARES false), so that the cache has something
 * to save on MariaDB too.
 * Printed: requests/s of each, the ratio pool / prefork (goal >= 0.9 with the cache on), cache on /
 * cache off, and the wait for a connection: the time prepare() takes in the pooled runs (with the
 * cache on it is the wait and nothing else), median and slowest (goal: slowest <= 10x median, no
 * convoy). Subject and baseline alternate, repetition by repetition; medians of BENCH_REPS
 * (default 3).
 *
 *   php -n -d extension=modules/async.so -d extension=pdo -d extension=mysqlnd -d extension=pdo_mysql \
 *       -d extension=pgsql -d extension=pdo_pgsql bench/pdo_pool.php [coroutines] [requests_each]
 */
declare(strict_types=1);

require __DIR__ . '/common.php';
require __DIR__ . '/../tests/inc/servers.inc';

use function Async\{spawn, await, await_all_or_fail};

const MAX_CONNECTIONS = 16;
const ROWS = 50;

function dsn_of(string $db, int $port): array
{
    return $db === 'mariadb'
        ? ["mysql:host=127.0.0.1;port=$port;dbname=bench", 'root', '']
        : ["pgsql:host=127.0.0.1;port=$port;dbname=postgres", 'postgres', ''];
}

function sql_of(string $db): string
{
    return $db === 'mariadb' ? 'SELECT id, v FROM bench.t WHERE id <= ?' : 'SELECT id, v FROM t WHERE id <= ?';
}

/* ---------------------------------------------------------------------------------------------
 * Children: php ... bench/pdo_pool.php child MODE DB PORT COROUTINES EACH [WORKER]
 * ------------------------------------------------------------------------------------------- */

function child_pool(string $db, int $port, int $coroutines, int $each, int $cache): void
{
    [$dsn, $user, $pass] = dsn_of($db, $port);
    $pdo = new PDO($dsn, $user, $pass, [
        PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        PDO::ATTR_EMULATE_PREPARES => false,
        PDO::ATTR_POOL_ENABLED => true,
        PDO::ATTR_POOL_MAX => MAX_CONNECTIONS,
        PDO::ATTR_POOL_MIN => MAX_CONNECTIONS,   // connected before the clock starts
        PDO::ATTR_POOL_STMT_CACHE_SIZE => $cache,
    ]);
    $sql = sql_of($db);
    [$ns, $rows, $waits] = await(spawn(function () use ($pdo, $sql, $coroutines, $each) {
        $t0 = hrtime(true);
        $cs = [];
        for ($c = 0; $c < $coroutines; $c++) {
            $cs[] = spawn(function () use ($pdo, $sql, $each) {
                $rows = 0;
                $waits = [];
                for ($r = 0; $r < $each; $r++) {
                    $w = hrtime(true);
                    $stmt = $pdo->prepare($sql);
                    $waits[] = hrtime(true) - $w;
                    $stmt->execute([ROWS]);
                    $rows += count($stmt->fetchAll(PDO::FETCH_NUM));
                    unset($stmt);   // the connection goes back
                }
                return [$rows, $waits];
            });
        }
        $rows = 0;
        $waits = [];
        foreach (await_all_or_fail($cs) as [$n, $w]) {
            $rows += $n;
            array_push($waits, ...$w);
        }
        return [hrtime(true) - $t0, $rows, $waits];
    }));
    sort($waits);
    printf("ns=%d\nrows=%d\nwait_median_ns=%d\nwait_tail_ns=%d\nwait_max_ns=%d\nconnections=%d\n", $ns, $rows,
        $waits[intdiv(count($waits), 2)], $waits[(int) (count($waits) * 0.99)], end($waits), count($pdo->getPool()));
}

/* One pre-fork worker: a persistent PDO, the statement prepared once, its share of the requests.
 * It connects first, says "ready", and starts when the parent writes a line (all at once). */
function child_worker(string $db, int $port, int $requests): void
{
    [$dsn, $user, $pass] = dsn_of($db, $port);
    $pdo = new PDO($dsn, $user, $pass, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        PDO::ATTR_EMULATE_PREPARES => false, PDO::ATTR_PERSISTENT => true]);
    $stmt = $pdo->prepare(sql_of($db));
    echo "ready\n";
    fgets(STDIN);
    $rows = 0;
    for ($r = 0; $r < $requests; $r++) {
        $stmt->execute([ROWS]);
        $rows += count($stmt->fetchAll(PDO::FETCH_NUM));
    }
    printf("rows=%d\n", $rows);
}

if (($argv[1] ?? '') === 'child') {
    [, , $mode, $db, $port, $coroutines, $each] = $argv;
    match ($mode) {
        'pool' => child_pool($db, (int) $port, (int) $coroutines, (int) $each, 0),
        'pool-cache' => child_pool($db, (int) $port, (int) $coroutines, (int) $each, MAX_CONNECTIONS),
        'worker' => child_worker($db, (int) $port, (int) $each),
    };
    exit(0);
}

/* ---------------------------------------------------------------------------------------------
 * Parent
 * ------------------------------------------------------------------------------------------- */

foreach (['pdo_mysql', 'pdo_pgsql'] as $ext) {
    if (!extension_loaded($ext)) {
        fwrite(STDERR, "the $ext extension is not loaded (-d extension=$ext)\n");
        exit(2);
    }
}
if (!defined('PDO::ATTR_POOL_ENABLED')) {
    fwrite(STDERR, "this ext-async has no PDO pool (built without PDO's headers?)\n");
    exit(2);
}

$coroutines = (int) ($argv[1] ?? 256);
$each = bench_scale((int) ($argv[2] ?? 200));
$reps = bench_reps(3);
$total = $coroutines * $each;

$servers = [
    'mariadb' => servers_start_mariadb(),
    'postgresql' => servers_start_postgres(['settings' => ['max_connections' => '100']]),
];
/* The table: 50 rows. */
foreach ($servers as $db => $server) {
    if ($db === 'mariadb') {
        $setup = new PDO("mysql:host=127.0.0.1;port={$server['port']}", 'root', '');
        $setup->exec('CREATE DATABASE bench');
        $setup->exec('CREATE TABLE bench.t (id INT PRIMARY KEY, v VARCHAR(40)) ENGINE=InnoDB');
    } else {
        $setup = new PDO("pgsql:host=127.0.0.1;port={$server['port']};dbname=postgres", 'postgres', '');
        $setup->exec('CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))');
    }
    $ins = $setup->prepare($db === 'mariadb' ? 'INSERT INTO bench.t VALUES (?, ?)' : 'INSERT INTO t VALUES (?, ?)');
    for ($i = 1; $i <= ROWS; $i++) {
        $ins->execute([$i, str_repeat(chr(96 + $i % 26), 20 + $i % 20)]);
    }
    unset($setup, $ins);
}

function run_pool(string $mode, string $db, int $port): array
{
    global $coroutines, $each, $total;
    $out = bench_run_child(['child', $mode, $db, (string) $port, (string) $coroutines, (string) $each]);
    $kv = bench_parse_kv($out);
    bench_check((int) ($kv['rows'] ?? 0) === $total * ROWS, "$mode $db: {$kv['rows']} rows, not " . ($total * ROWS));
    bench_check((int) $kv['connections'] <= MAX_CONNECTIONS, "$mode $db: {$kv['connections']} connections");
    return $kv;
}

/* 16 workers started together; the clock runs from "go" to the last one's answer. */
function run_prefork(string $db, int $port): float
{
    global $total;
    $cmd = bench_self_command();
    $share = intdiv($total, MAX_CONNECTIONS);
    $procs = [];
    for ($w = 0; $w < MAX_CONNECTIONS; $w++) {
        $proc = proc_open(array_merge($cmd, ['child', 'worker', $db, (string) $port, '1', (string) $share]),
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        bench_check(is_resource($proc), 'cannot start a worker');
        $procs[] = [$proc, $pipes];
    }
    foreach ($procs as [$proc, $pipes]) {
        if (trim((string) fgets($pipes[1])) !== 'ready') {
            bench_check(false, 'a worker did not connect: ' . stream_get_contents($pipes[2]));
        }
    }
    $t0 = hrtime(true);
    foreach ($procs as [$proc, $pipes]) {
        fwrite($pipes[0], "go\n");
    }
    $rows = 0;
    foreach ($procs as [$proc, $pipes]) {
        $kv = bench_parse_kv(stream_get_contents($pipes[1]));
        $rows += (int) ($kv['rows'] ?? 0);
    }
    $ns = hrtime(true) - $t0;
    foreach ($procs as [$proc, $pipes]) {
        fclose($pipes[0]);
        proc_close($proc);
    }
    bench_check($rows === $share * MAX_CONNECTIONS * ROWS, "prefork $db: $rows rows");
    return $share * MAX_CONNECTIONS / ($ns / 1e9);
}

bench_header(sprintf('PDO pool: %d coroutines x %d requests (prepare + execute + fetchAll of %d rows) through one PDO, MAX %d, '
    . 'against %d pre-fork workers', $coroutines, $each, ROWS, MAX_CONNECTIONS, MAX_CONNECTIONS), $reps);
foreach ($servers as $db => $server) {
    $pool = $cache = $fork = $waitMed = $waitMax = $waitP99 = [];
    for ($r = 0; $r < $reps; $r++) {
        $fork[] = run_prefork($db, $server['port']);
        $off = run_pool('pool', $db, $server['port']);
        $on = run_pool('pool-cache', $db, $server['port']);
        $pool[] = $total / ($off['ns'] / 1e9);
        $cache[] = $total / ($on['ns'] / 1e9);
        $waitMed[] = $on['wait_median_ns'] / 1e3;
        $waitP99[] = $on['wait_tail_ns'] / 1e3;
        $waitMax[] = $on['wait_max_ns'] / 1e3;
    }
    $f = bench_median($fork);
    $p = bench_median($pool);
    $c = bench_median($cache);
    printf("%s prefork (%d workers, persistent PDO, statement prepared once): %.0f requests/s (%s)\n", $db,
        MAX_CONNECTIONS, $f, bench_spread($fork, 0));
    printf("%s pool, statement cache off:  %.0f requests/s (%s), %.3f of prefork\n", $db, $p, bench_spread($pool, 0), $p / $f);
    printf("%s pool, statement cache on:   %.0f requests/s (%s), %.3f of prefork, %.3f of cache off\n", $db, $c,
        bench_spread($cache, 0), $c / $f, $c / $p);
    $med = bench_median($waitMed);
    $max = bench_median($waitMax);
    printf("%s wait for a connection (cache on): median %.0f µs, p99 %.0f µs, slowest %.0f µs (%.1fx the median)\n", $db,
        $med, bench_median($waitP99), $max, $max / $med);
    bench_goal("$db pool (cache on) >= 0.9 of prefork", $c / $f >= 0.9, sprintf('%.3f', $c / $f));
    bench_goal("$db slowest wait <= 10x median", $max <= 10 * $med, sprintf('%.1fx', $max / $med));
}
