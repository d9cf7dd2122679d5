--TEST--
PDO pool (mysql): a coroutine whose connection the server killed sees the error a plain PDO sees: ERRMODE_EXCEPTION throws PDOException 2006 "MySQL server has gone away"; ERRMODE_SILENT returns false and errorCode()/errorInfo() then say HY000/2006 although the broken connection is gone from the pool
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
$mon = pool_monitor_mysql($db);
function kill(PDO $mon, int $id): void
{
    $mon->exec("KILL $id");
    while ($mon->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = $id")->fetchColumn() > 0) {
        delay(2);
    }
}
function after_kill(PDO $pdo): string
{
    try {
        $r = $pdo->query('SELECT 1');
        $out = 'returned ' . var_export($r, true);
    } catch (PDOException $e) {
        $out = 'PDOException: ' . $e->getMessage();
    }
    return $out . ', errorCode ' . var_export($pdo->errorCode(), true) . ', errorInfo ' . json_encode($pdo->errorInfo());
}
foreach ([PDO::ERRMODE_EXCEPTION => 'exception', PDO::ERRMODE_SILENT => 'silent'] as $mode => $name) {
    $plain = new PDO($db['dsn'], 'root', '', [PDO::ATTR_ERRMODE => $mode]);
    kill($mon, (int) $plain->query('SELECT CONNECTION_ID()')->fetchColumn());
    $stock = after_kill($plain);

    $pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_ERRMODE => $mode]);
    kill($mon, await(spawn(fn () => (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn())));
    $mine = await(spawn(fn () => after_kill($pdo)));
    echo "$name: ", $mine === $stock ? "as stock: $stock" : "pooled: $mine\n  stock: $stock", "\n";
}
?>
--EXPECT--
exception: as stock: PDOException: SQLSTATE[HY000]: General error: 2006 MySQL server has gone away, errorCode 'HY000', errorInfo ["HY000",2006,"MySQL server has gone away"]
silent: as stock: returned false, errorCode 'HY000', errorInfo ["HY000",2006,"MySQL server has gone away"]
