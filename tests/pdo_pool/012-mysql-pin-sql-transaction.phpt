--TEST--
PDO pool (mysql): a transaction opened with SQL (START TRANSACTION, BEGIN) or by autocommit off pins the connection like beginTransaction(): with MAX 1 another coroutine waits for the pool until COMMIT/ROLLBACK; the session stays the same meanwhile
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
function waits_for_pool(Async\Coroutine $c): string
{
    while ((!$c->isStarted() || !$c->isSuspended()) && !$c->isCompleted()) {
        suspend();
    }
    $info = $c->isCompleted() ? ['completed'] : $c->getAwaitingInfo();
    return str_starts_with((string) ($info[0] ?? ''), 'Pool') ? 'waits for the pool' : 'not waiting for the pool: ' . implode(', ', $info);
}

$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1]);
$pdo->exec('CREATE TABLE items (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(40)) ENGINE=InnoDB');
$pool = $pdo->getPool();

$cases = [
    'START TRANSACTION ... COMMIT' => [fn () => $pdo->exec('START TRANSACTION'), fn () => $pdo->exec('COMMIT')],
    'BEGIN ... ROLLBACK' => [fn () => $pdo->exec('BEGIN'), fn () => $pdo->exec('ROLLBACK')],
    'autocommit off ... COMMIT' => [fn () => $pdo->setAttribute(PDO::ATTR_AUTOCOMMIT, false), fn () => $pdo->exec('COMMIT')],
];
foreach ($cases as $name => [$open, $close]) {
    $gates = new Gates();
    $ready = false;
    $a = spawn(function () use ($pdo, $gates, $open, $close, $name, &$ready) {
        $open();
        $pdo->exec("INSERT INTO items (name) VALUES ('$name')");
        $id = $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
        $inTx = $pdo->inTransaction();
        $ready = true;
        $gates->wait('close');
        $same = $pdo->query('SELECT CONNECTION_ID()')->fetchColumn() === $id;
        $close();
        return var_export($inTx, true) . ', one session: ' . var_export($same, true);
    });
    while (!$ready && !$a->isCompleted()) {
        suspend();
    }
    $b = spawn(fn () => $pdo->query("SELECT COUNT(*) FROM items WHERE name = '$name'")->fetchColumn());
    echo "$name: B ", waits_for_pool($b);
    $gates->open('close');
    echo ', then sees ', await($b, timeout(5000)), ' row; A inTransaction: ', await($a), "\n";
}
echo 'pool: ', count($pool), ', idle ', $pool->idleCount(), "\n";
?>
--EXPECT--
START TRANSACTION ... COMMIT: B waits for the pool, then sees 1 row; A inTransaction: true, one session: true
BEGIN ... ROLLBACK: B waits for the pool, then sees 0 row; A inTransaction: true, one session: true
autocommit off ... COMMIT: B waits for the pool, then sees 1 row; A inTransaction: true, one session: true
pool: 1, idle 1
