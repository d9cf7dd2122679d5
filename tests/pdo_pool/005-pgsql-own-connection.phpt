--TEST--
PDO pool (pgsql): one pooled PDO, 5 coroutines each run SELECT pg_sleep(0.2): each on a backend of its own (distinct pg_backend_pid(), none the template's), the queries overlap (about 0.2 s, not 1 s), the pool holds 5 connections afterwards
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pdo_pgsql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pdo
pdo_pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
use function Async\{spawn, await_all_or_fail};

$db = servers_start_postgres();
$pdo = pool_pgsql($db, [PDO::ATTR_POOL_MAX => 8]);
$n = 5;
$own = (int) $pdo->query('SELECT pg_backend_pid()')->fetchColumn();

$t0 = hrtime(true);
$rows = await_all_or_fail(array_map(fn ($i) => spawn(function () use ($pdo, $i) {
    $t = hrtime(true);
    $s = $pdo->prepare('SELECT pg_sleep(0.2), pg_backend_pid() AS pid, ?::int AS i');
    $s->execute([$i]);
    $row = $s->fetch(PDO::FETCH_ASSOC);
    return [(int) $row['pid'], (int) $row['i'], ms_since($t)];
}), range(1, $n)));
$total = ms_since($t0);

$pids = array_column($rows, 0);
echo 'answers in order: ', implode(',', array_column($rows, 1)) === implode(',', range(1, $n)) ? 'yes' : 'no', "\n";
echo 'distinct backends: ', count(array_unique($pids)), " of $n\n";
echo 'the template\'s among them: ', var_export(in_array($own, $pids, true), true), "\n";
echo 'each took its 200 ms: ', var_export(min(array_column($rows, 2)) >= 199, true), "\n";
echo $total < 200 + 300 * slow_factor() ? "together: about 0.2 s\n" : "took $total ms\n";
$pool = $pdo->getPool();
echo 'after: ', count($pool), ' pooled, ', $pool->idleCount(), " idle\n";
// the server agrees: 5 pooled backends + the template's + this monitor
$mon = pool_monitor_pgsql($db);
echo 'backends on the server: ', $mon->query("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")->fetchColumn(), "\n";
?>
--EXPECT--
answers in order: yes
distinct backends: 5 of 5
the template's among them: false
each took its 200 ms: true
together: about 0.2 s
after: 5 pooled, 5 idle
backends on the server: 7
