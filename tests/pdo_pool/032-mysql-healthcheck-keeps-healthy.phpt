--TEST--
PDO pool (mysql): PDO::ATTR_POOL_HEALTHCHECK_INTERVAL (30 ms) checks leave healthy idle connections as they are: after many checks the same two server sessions are pooled, and coroutines' queries between and after the checks all work on them
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
use function Async\{spawn, await, delay};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MIN => 2, PDO::ATTR_POOL_MAX => 2,
    PDO::ATTR_POOL_HEALTHCHECK_INTERVAL => 30, PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT]);
$pool = $pdo->getPool();
$mon = pool_monitor_mysql($db);
$template = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
$pooled = function () use ($mon, $template) {
    $ids = array_map('intval', $mon->query("SELECT ID FROM information_schema.PROCESSLIST WHERE DB = 't' AND ID NOT IN (CONNECTION_ID(), $template)")->fetchAll(PDO::FETCH_COLUMN));
    sort($ids);
    return $ids;
};
$before = $pooled();
$results = [];
for ($i = 0; $i < 8; $i++) {
    delay(40);  // at least one round of checks in between
    $results[] = await(spawn(function () use ($pdo) {
        $st = $pdo->query('SELECT CONNECTION_ID()');
        return $st === false ? 'failed: ' . json_encode($pdo->errorInfo()) : (int) $st->fetchColumn();
    }));
}
delay(150);
$after = $pooled();
echo 'pooled sessions before: ', count($before), ', the same after the checks: ', var_export($before === $after, true), "\n";
echo 'queries: ', implode(', ', array_map(fn ($r) => is_int($r) ? (in_array($r, $before, true) ? 'ok' : 'ok on a new connection') : $r, $results)), "\n";
// a check in flight holds the connection it pings: wait until it is back (a condition, not a time)
for ($n = 0; $pool->idleCount() < count($pool) && $n < 500; $n++) {
    delay(1);
}
echo 'pool: ', count($pool), ', idle ', $pool->idleCount(), "\n";
?>
--EXPECT--
pooled sessions before: 2, the same after the checks: true
queries: ok, ok, ok, ok, ok, ok, ok, ok
pool: 2, idle 2
