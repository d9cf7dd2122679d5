--TEST--
PDO pool (mysql): with PDO::ATTR_POOL_HEALTHCHECK_INTERVAL (50 ms) an idle connection the server killed is found and replaced by the checks, before anyone asks for it: afterwards two coroutines at once both get working connections, neither the killed one, and the pool is back to MIN
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
use function Async\{spawn, await, await_all_or_fail, delay, suspend, timeout};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MIN => 2, PDO::ATTR_POOL_MAX => 2,
    PDO::ATTR_POOL_HEALTHCHECK_INTERVAL => 50, PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT]);
$pool = $pdo->getPool();
$mon = pool_monitor_mysql($db);
$template = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
$pooled = fn () => array_map('intval', $mon->query("SELECT ID FROM information_schema.PROCESSLIST WHERE DB = 't' AND ID NOT IN (CONNECTION_ID(), $template)")->fetchAll(PDO::FETCH_COLUMN));

$before = $pooled();
echo 'pooled sessions: ', count($before), "\n";
$victim = $before[0];
$mon->exec("KILL $victim");
// the checks run every 50 ms: within a while the server has two pooled sessions again, not the victim
$t0 = hrtime(true);
do {
    delay(20);
    $now = $pooled();
} while ((count($now) !== 2 || in_array($victim, $now, true) || count($pool) !== 2) && ms_since($t0) < 3000 * slow_factor());
echo 'replaced: ', var_export(!in_array($victim, $now, true), true), ', pooled sessions ', count($now), ', pool ', count($pool), "\n";

$bound = new ArrayObject();
$ids = await_all_or_fail([spawn($f = function () use ($pdo, $bound) {
    $st = $pdo->query('SELECT CONNECTION_ID()');
    if ($st === false) {
        $bound['failed'] = true;    // the other need not wait
        return 'failed: ' . json_encode($pdo->errorInfo());
    }
    $bound['ok'] = ($bound['ok'] ?? 0) + 1;
    while ($bound['ok'] < 2 && !isset($bound['failed'])) {
        suspend();
    }
    return (int) $st->fetchColumn();
}), spawn($f)], timeout(5000));
echo 'two at once: ', json_encode(array_map(fn ($id) => is_int($id) ? ($id === $victim ? 'the killed one' : 'working') : $id, $ids)), "\n";
?>
--EXPECT--
pooled sessions: 2
replaced: true, pooled sessions 2, pool 2
two at once: ["working","working"]
