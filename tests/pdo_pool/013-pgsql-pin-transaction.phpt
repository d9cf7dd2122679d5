--TEST--
PDO pool (pgsql): a transaction (beginTransaction(), or BEGIN in SQL) pins the connection until it ends: A's uncommitted insert is invisible to B meanwhile, A's inTransaction() is true while B's is false, A stays on one backend; with MAX 1 B waits for the pool until A commits or rolls back
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
use function Async\{spawn, await, await_all_or_fail, suspend, timeout};

$db = servers_start_postgres();
function waits_for_pool(Async\Coroutine $c): string
{
    while ((!$c->isStarted() || !$c->isSuspended()) && !$c->isCompleted()) {
        suspend();
    }
    $info = $c->isCompleted() ? ['completed'] : $c->getAwaitingInfo();
    return str_starts_with((string) ($info[0] ?? ''), 'Pool') ? 'waits for the pool' : 'not waiting for the pool: ' . implode(', ', $info);
}

// 1. isolation, MAX 2
$pdo = pool_pgsql($db, [PDO::ATTR_POOL_MAX => 2]);
$pdo->exec('CREATE TABLE items (id SERIAL PRIMARY KEY, name TEXT)');
$toA = new Async\Channel(1);
$toB = new Async\Channel(1);
$log = [];
$a = spawn(function () use ($pdo, $toA, $toB, &$log) {
    $pdo->beginTransaction();
    $pids = [$pdo->query('SELECT pg_backend_pid()')->fetchColumn()];
    $pdo->exec("INSERT INTO items (name) VALUES ('from A')");
    $log[] = 'A inserted, sees ' . $pdo->query('SELECT COUNT(*) FROM items')->fetchColumn() . ' row, inTransaction ' . var_export($pdo->inTransaction(), true);
    $toB->send(1);
    $toA->recv();
    $log[] = 'A still inTransaction: ' . var_export($pdo->inTransaction(), true);
    $pids[] = $pdo->query('SELECT pg_backend_pid()')->fetchColumn();
    $pdo->commit();
    $log[] = 'A committed, inTransaction ' . var_export($pdo->inTransaction(), true) . ', one backend: ' . var_export(count(array_unique($pids)) === 1, true);
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

// 2. pinning, MAX 1
$one = pool_pgsql($db, [PDO::ATTR_POOL_MAX => 1]);
$pool = $one->getPool();
$cases = [
    'beginTransaction ... commit' => [fn () => $one->beginTransaction(), fn () => $one->commit()],
    'beginTransaction ... rollBack' => [fn () => $one->beginTransaction(), fn () => $one->rollBack()],
    'BEGIN ... COMMIT' => [fn () => $one->exec('BEGIN'), fn () => $one->exec('COMMIT')],
    'BEGIN ... ROLLBACK' => [fn () => $one->exec('BEGIN'), fn () => $one->exec('ROLLBACK')],
];
foreach ($cases as $name => [$open, $close]) {
    $gates = new Gates();
    $ready = false;
    $a = spawn(function () use ($one, $gates, $open, $close, $name, &$ready) {
        $open();
        $one->exec("INSERT INTO items (name) VALUES ('$name')");
        $inTx = $one->inTransaction();
        $ready = true;
        $gates->wait('close');
        $close();
        return var_export($inTx, true);
    });
    while (!$ready && !$a->isCompleted()) {
        suspend();
    }
    $b = spawn(fn () => $one->query("SELECT COUNT(*) FROM items WHERE name = '$name'")->fetchColumn());
    echo "$name: B ", waits_for_pool($b);
    $gates->open('close');
    echo ', then sees ', await($b, timeout(5000)), ' row; A inTransaction: ', await($a), "\n";
}
echo 'pool: ', count($pool), ', idle ', $pool->idleCount(), "\n";
?>
--EXPECT--
A inserted, sees 1 row, inTransaction true
B sees 0 rows, inTransaction false
A still inTransaction: true
A committed, inTransaction false, one backend: true
B sees 1 row
beginTransaction ... commit: B waits for the pool, then sees 1 row; A inTransaction: true
beginTransaction ... rollBack: B waits for the pool, then sees 0 row; A inTransaction: true
BEGIN ... COMMIT: B waits for the pool, then sees 1 row; A inTransaction: true
BEGIN ... ROLLBACK: B waits for the pool, then sees 0 row; A inTransaction: true
pool: 1, idle 1
