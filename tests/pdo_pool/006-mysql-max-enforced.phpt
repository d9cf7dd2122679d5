--TEST--
PDO pool (mysql): MAX 2, 6 coroutines each hold a connection for SELECT SLEEP(0.15): the server never runs more than 2 of them at once, only 2 connections are ever made, the pool never counts more than 2, and the whole takes 3 rounds (about 0.45 s)
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['pdo_mysql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
use function Async\{spawn, await_all_or_fail};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 2]);
$pool = $pdo->getPool();
$n = 6;
// counted first, then the sleep: how many of these queries the server runs at this moment (itself included)
$sql = "SELECT (SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND INFO LIKE '%%held-%%') AS running,"
    . " CONNECTION_ID() AS id, SLEEP(0.15) AS s, 'held-%d' AS tag";

$t0 = hrtime(true);
$rows = await_all_or_fail(array_map(fn ($i) => spawn(function () use ($pdo, $pool, $sql, $i) {
    $st = $pdo->query(sprintf($sql, $i));       // the statement pins the connection
    $row = $st->fetch(PDO::FETCH_ASSOC);
    $seen = [$pool->activeCount(), count($pool)];
    unset($st);
    return [(int) $row['running'], (int) $row['id'], $seen];
}), range(1, $n)));
$total = ms_since($t0);

echo 'most run at once on the server: ', max(array_column($rows, 0)), "\n";
echo 'connections used: ', count(array_unique(array_column($rows, 1))), "\n";
echo 'most active seen by the pool: ', max(array_map(fn ($r) => $r[2][0], $rows)), "\n";
echo 'most counted by the pool: ', max(array_map(fn ($r) => $r[2][1], $rows)), "\n";
echo $total >= 3 * 150 - 1 ? "not before 3 rounds\n" : "took only $total ms\n";
echo $total < 450 + 300 * slow_factor() ? "about 3 rounds\n" : "took $total ms\n";
echo 'after: ', count($pool), ' pooled, ', $pool->idleCount(), " idle\n";
?>
--EXPECT--
most run at once on the server: 2
connections used: 2
most active seen by the pool: 2
most counted by the pool: 2
not before 3 rounds
about 3 rounds
after: 2 pooled, 2 idle
