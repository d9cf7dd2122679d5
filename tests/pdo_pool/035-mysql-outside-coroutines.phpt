--TEST--
PDO pool (mysql): before the first spawn() calls on a pooled PDO run on the template's own connection exactly as on a plain PDO (one session for all: session variables, a transaction, lastInsertId(), errors, statements), and none of it takes a pooled connection (getPool()->count() stays 0)
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

$db = pool_start_mariadb();
function script(PDO $pdo): array
{
    $out = [];
    $id = $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
    $pdo->exec('CREATE TABLE IF NOT EXISTS items (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20)) ENGINE=InnoDB');
    $pdo->exec('DELETE FROM items');
    $pdo->exec('SET @v = 7');
    $out[] = 'session variable: ' . $pdo->query('SELECT @v')->fetchColumn();
    $pdo->beginTransaction();
    $pdo->exec("INSERT INTO items (name) VALUES ('x')");
    $out[] = 'inTransaction: ' . var_export($pdo->inTransaction(), true) . ', lastInsertId > 0: ' . var_export($pdo->lastInsertId() > 0, true);
    $st = $pdo->prepare('SELECT COUNT(*) FROM items WHERE name = ?');
    $st->execute(['x']);
    $out[] = 'in the transaction: ' . $st->fetchColumn();
    $pdo->rollBack();
    $st->execute(['x']);
    $out[] = 'after rollBack: ' . $st->fetchColumn();
    try {
        $pdo->query('SELECT * FROM nosuchtable');
    } catch (PDOException $e) {
        $out[] = 'error: ' . $e->getMessage() . ', errorCode ' . $pdo->errorCode();
    }
    $pdo->setAttribute(PDO::ATTR_DEFAULT_FETCH_MODE, PDO::FETCH_NUM);
    $out[] = 'fetch mode: ' . json_encode($pdo->query('SELECT 1 AS a')->fetch());
    $out[] = 'one session for all: ' . var_export($pdo->query('SELECT CONNECTION_ID()')->fetchColumn() === $id, true);
    return $out;
}
$plain = new PDO($db['dsn'], 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$stock = script($plain);
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 2]);
$pool = $pdo->getPool();
$mine = script($pdo);
echo $mine === $stock ? "as stock:\n" . implode("\n", $mine) : "pooled:\n" . implode("\n", $mine) . "\nstock:\n" . implode("\n", $stock), "\n";
echo 'pooled connections: ', count($pool), "\n";
?>
--EXPECT--
as stock:
session variable: 7
inTransaction: true, lastInsertId > 0: true
in the transaction: 1
after rollBack: 0
error: SQLSTATE[42S02]: Base table or view not found: 1146 Table 't.nosuchtable' doesn't exist, errorCode 42S02
fetch mode: [1]
one session for all: true
pooled connections: 0
