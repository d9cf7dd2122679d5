--TEST--
PDO pool (mysql): MIN 2 (health checks off): when a broken connection (its coroutine cancelled mid-query) is destroyed, the pool makes a new one by itself, back to MIN, without waiting for a caller; the server then has 2 pooled sessions again
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
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MIN => 2, PDO::ATTR_POOL_MAX => 3]);
$pool = $pdo->getPool();
$mon = pool_monitor_mysql($db);
$pooledSessions = fn () => (int) $mon->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = 't' AND ID <> CONNECTION_ID()")->fetchColumn() - 1; // less the template's
echo 'made: ', count($pool), ', sessions on the server: ', $pooledSessions(), "\n";

$a = spawn(fn () => $pdo->query('SELECT SLEEP(0.3)'));
while ($mon->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(0.3)'")->fetchColumn() == 0) {
    delay(2);
}
$a->cancel();
try {
    await($a);
} catch (Async\AsyncCancellation $e) {
    echo "cancelled mid-query\n";
}
$t0 = hrtime(true);
while ((count($pool) < 2 || $pool->idleCount() < 2) && ms_since($t0) < 2000 * slow_factor()) {
    delay(10);
}
echo 'back to MIN: ', count($pool), ', idle ', $pool->idleCount(), "\n";
// the victim's SLEEP(0.3) ends and its session goes: the server then has the 2 pooled ones
$t0 = hrtime(true);
while ($pooledSessions() !== 2 && ms_since($t0) < 3000) {
    delay(20);
}
echo 'sessions on the server: ', $pooledSessions(), "\n";
?>
--EXPECT--
made: 2, sessions on the server: 2
cancelled mid-query
back to MIN: 2, idle 2
sessions on the server: 2
