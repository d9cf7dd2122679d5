--TEST--
PDO pool (mysql, InnoDB): beginTransaction() pins the connection until commit()/rollBack(): A's uncommitted insert is invisible to B running meanwhile, A's inTransaction() is true while B's is false, A's calls stay in one session; with MAX 1 B waits for the pool until A commits (and then sees the row) or rolls back (and does not)
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
use function Async\{spawn, await, await_all_or_fail, suspend, timeout};

$db = pool_start_mariadb();
function waits_for_pool(Async\Coroutine $c): string
{
    while ((!$c->isStarted() || !$c->isSuspended()) && !$c->isCompleted()) {
        suspend();
    }
    $info = $c->isCompleted() ? ['completed'] : $c->getAwaitingInfo();
    return str_starts_with((string) ($info[0] ?? ''), 'Pool') ? 'waits for the pool' : 'not waiting for the pool: ' . implode(', ', $info);
}

// 1. isolation, MAX 2
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 2]);
$pdo->exec('CREATE TABLE items (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20)) ENGINE=InnoDB');
$toA = new Async\Channel(1);
$toB = new Async\Channel(1);
$log = [];
$a = spawn(function () use ($pdo, $toA, $toB, &$log) {
    $pdo->beginTransaction();
    $ids = [$pdo->query('SELECT CONNECTION_ID()')->fetchColumn()];
    $pdo->exec("INSERT INTO items (name) VALUES ('from A')");
    $ids[] = $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
    $log[] = 'A inserted, sees ' . $pdo->query('SELECT COUNT(*) FROM items')->fetchColumn() . ' row, inTransaction ' . var_export($pdo->inTransaction(), true);
    $toB->send(1);
    $toA->recv();
    $log[] = 'A still inTransaction: ' . var_export($pdo->inTransaction(), true);
    $ids[] = $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
    $pdo->commit();
    $log[] = 'A committed, inTransaction ' . var_export($pdo->inTransaction(), true) . ', one session: ' . var_export(count(array_unique($ids)) === 1, true);
    $toB->send(2);
});
$b = spawn(function () use ($pdo, $toA, $toB, &$log) {
    $toB->recv();
    $log[] = 'B sees ' . $pdo->query('SELECT COUNT(*) FROM items')->fetchColumn() . ' rows, inTransaction ' . var_export($pdo->inTransaction(), true);
    $toA->send(1);
    $toB->recv();
    $log[] = 'B sees ' . $pdo->query("SELECT COUNT(*) FROM items WHERE name = 'from A'")->fetchColumn() . ' row';
});
await_all_or_fail([$a, $b], timeout(5000));
echo implode("\n", $log), "\n";

// 2. pinning, MAX 1: commit, then rollBack
$one = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1]);
$pool = $one->getPool();
foreach (['commit', 'rollBack'] as $end) {
    $gates = new Gates();
    $a = spawn(function () use ($one, $gates, $end) {
        $one->beginTransaction();
        $one->exec("INSERT INTO items (name) VALUES ('$end')");
        $gates->wait('end');
        $one->$end();
    });
    while ($pool->activeCount() < 1 && !$a->isCompleted()) {
        suspend();
    }
    $b = spawn(fn () => $one->query("SELECT COUNT(*) FROM items WHERE name = '$end'")->fetchColumn());
    echo "$end: B ", waits_for_pool($b), ' while A is in its transaction';
    $gates->release('end');
    echo ", then sees ", await($b, timeout(5000)), " row\n";
    await($a);
}
echo 'pool: ', count($pool), ', idle ', $pool->idleCount(), "\n";
?>
--EXPECT--
A inserted, sees 1 row, inTransaction true
B sees 0 rows, inTransaction false
A still inTransaction: true
A committed, inTransaction false, one session: true
B sees 1 row
commit: B waits for the pool while A is in its transaction, then sees 1 row
rollBack: B waits for the pool while A is in its transaction, then sees 0 row
pool: 1, idle 1
