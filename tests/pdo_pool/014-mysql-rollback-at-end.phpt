--TEST--
PDO pool (mysql): a coroutine that ends inside a transaction (returning, throwing, or cancelled while it waits for something else) has it rolled back: its rows are gone, the same connection goes back to the pool, and the next user (waiting at MAX 1) is not in a transaction
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
use function Async\{spawn, await, suspend, timeout};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1]);
$pdo->exec('CREATE TABLE items (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(40)) ENGINE=InnoDB');
$pool = $pdo->getPool();
$mon = pool_monitor_mysql($db);

$endings = [
    'returns' => fn () => 'done',
    'throws' => fn () => throw new RuntimeException('failed'),
    'cancelled while waiting' => fn () => (new Async\Channel(1))->recv(),
];
foreach ($endings as $how => $end) {
    $ready = false;
    $idA = null;
    $a = spawn(function () use ($pdo, $end, $how, &$ready, &$idA) {
        $pdo->beginTransaction();
        $pdo->exec("INSERT INTO items (name) VALUES ('$how')");
        $idA = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
        $ready = true;
        return $end();
    });
    while (!$ready && !$a->isCompleted()) {
        suspend();
    }
    $pinned = 'active ' . $pool->activeCount();
    // the next user asks while A still holds the connection in its transaction
    $b = spawn(fn () => [(int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn(), $pdo->inTransaction(),
        (int) $pdo->query('SELECT @@in_transaction')->fetchColumn(),
        (int) $pdo->query("SELECT COUNT(*) FROM items WHERE name = '$how'")->fetchColumn()]);
    if ($how === 'cancelled while waiting') {
        while (!$a->isStarted() || !$a->isSuspended()) {
            suspend();
        }
        $a->cancel();
    }
    try {
        await($a);
        $outcome = 'returned';
    } catch (Throwable $e) {
        $outcome = get_class($e);
    }
    [$idB, $bInTx, $serverInTx, $rows] = await($b, timeout(5000));
    echo "$how ($outcome, $pinned while in it): next user ",
        $idA === $idB ? 'on the same connection' : "on another ($idA, $idB)",
        ', inTransaction ', var_export($bInTx, true), ', server in_transaction ', $serverInTx,
        ", A's rows $rows, on the server ", $mon->query("SELECT COUNT(*) FROM items WHERE name = '$how'")->fetchColumn(), "\n";
}
echo 'pool: ', count($pool), ', idle ', $pool->idleCount(), "\n";
?>
--EXPECT--
returns (returned, active 1 while in it): next user on the same connection, inTransaction false, server in_transaction 0, A's rows 0, on the server 0
throws (RuntimeException, active 1 while in it): next user on the same connection, inTransaction false, server in_transaction 0, A's rows 0, on the server 0
cancelled while waiting (Async\AsyncCancellation, active 1 while in it): next user on the same connection, inTransaction false, server in_transaction 0, A's rows 0, on the server 0
pool: 1, idle 1
