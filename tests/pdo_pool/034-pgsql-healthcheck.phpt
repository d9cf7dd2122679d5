--TEST--
PDO pool (pgsql): PDO::ATTR_POOL_HEALTHCHECK_INTERVAL (30 ms) checks leave healthy idle backends as they are (the same two pooled, queries work), and find an idle one the server terminated and replace it before anyone asks for it: afterwards two coroutines at once both get working connections, neither the terminated one
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
use function Async\{spawn, await, await_all_or_fail, delay, suspend, timeout};

$db = servers_start_postgres();
$pdo = pool_pgsql($db, [PDO::ATTR_POOL_MIN => 2, PDO::ATTR_POOL_MAX => 2,
    PDO::ATTR_POOL_HEALTHCHECK_INTERVAL => 30, PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT]);
$pool = $pdo->getPool();
$mon = pool_monitor_pgsql($db);
$template = (int) $pdo->query('SELECT pg_backend_pid()')->fetchColumn();
$pooled = function () use ($mon, $template) {
    $ids = array_map('intval', $mon->query("SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid NOT IN (pg_backend_pid(), $template)")->fetchAll(PDO::FETCH_COLUMN));
    sort($ids);
    return $ids;
};
$query = function () use ($pdo) {
    $st = $pdo->query('SELECT pg_backend_pid()');
    return $st === false ? 'failed: ' . json_encode($pdo->errorInfo()) : (int) $st->fetchColumn();
};

// 1. healthy ones stay
$before = $pooled();
$results = [];
for ($i = 0; $i < 8; $i++) {
    delay(40);
    $results[] = await(spawn($query));
}
delay(150);
echo 'pooled before: ', count($before), ', the same after the checks: ', var_export($before === $pooled(), true), "\n";
echo 'queries: ', implode(', ', array_map(fn ($r) => is_int($r) ? (in_array($r, $before, true) ? 'ok' : 'ok on a new connection') : $r, $results)), "\n";

// 2. a terminated one is replaced by the checks
$victim = $before[0];
$mon->query("SELECT pg_terminate_backend($victim)");
$t0 = hrtime(true);
do {
    delay(20);
    $now = $pooled();
} while ((count($now) !== 2 || in_array($victim, $now, true) || count($pool) !== 2) && ms_since($t0) < 3000 * slow_factor());
echo 'replaced: ', var_export(!in_array($victim, $now, true), true), ', pooled ', count($now), ', pool ', count($pool), "\n";
$state = new ArrayObject(['ok' => 0]);
$ids = await_all_or_fail([spawn($f = function () use ($pdo, $state) {
    $st = $pdo->query('SELECT pg_backend_pid()');
    if ($st === false) {
        $state['failed'] = true;
        return 'failed: ' . json_encode($pdo->errorInfo());
    }
    $state['ok']++;
    while ($state['ok'] < 2 && !isset($state['failed'])) {
        suspend();
    }
    return (int) $st->fetchColumn();
}), spawn($f)], timeout(5000));
echo 'two at once: ', json_encode(array_map(fn ($id) => is_int($id) ? ($id === $victim ? 'the terminated one' : 'working') : $id, $ids)), "\n";
?>
--EXPECT--
pooled before: 2, the same after the checks: true
queries: ok, ok, ok, ok, ok, ok, ok, ok
replaced: true, pooled 2, pool 2
two at once: ["working","working"]
