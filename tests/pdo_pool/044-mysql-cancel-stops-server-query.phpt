--TEST--
PDO pool (mysql): a coroutine cancelled while its SELECT SLEEP(5) runs leaves no long query behind on the server: shortly after the cancellation SHOW PROCESSLIST has no such query any more (as pdo_pgsql's cancel does on PostgreSQL)
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
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 2]);
$mon = pool_monitor_mysql($db);
$running = fn () => (int) $mon->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(5)'")->fetchColumn();

$a = spawn(fn () => $pdo->query('SELECT SLEEP(5)'));
while ($running() === 0) {
    delay(2);
}
echo "running on the server\n";
$a->cancel();
try {
    await($a);
} catch (Async\AsyncCancellation $e) {
    echo "cancelled\n";
}
// well within the 5 s the query would take: 1 s
$t0 = hrtime(true);
while ($running() > 0 && ms_since($t0) < 1000) {
    delay(20);
}
echo 'still running on the server: ', $running(), "\n";
echo 'the pool works: ', await(spawn(fn () => $pdo->query('SELECT 42')->fetchColumn())), "\n";
?>
--EXPECT--
running on the server
cancelled
still running on the server: 0
the pool works: 42
