--TEST--
PDO pool (mysql): a statement still alive after its coroutine ended (returned, or stored in a long-lived object) keeps its connection out of the pool: it stays usable, MAX 1 waiters wait for the pool until it is freed, then the connection goes back (to the waiter, or idle)
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
$pool = $pdo->getPool();
$state = fn () => 'active ' . $pool->activeCount() . ', idle ' . $pool->idleCount();

// 1. returned by its coroutine, with a waiter
$kept = await(spawn(fn () => $pdo->query('SELECT CONNECTION_ID() AS id, 42 AS answer')));
echo 'A ended, statement returned: ', $state(), "\n";
$b = spawn(fn () => (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn());
while (!$b->isStarted() || !$b->isSuspended()) {
    suspend();
}
echo 'B: ', str_starts_with($b->getAwaitingInfo()[0] ?? '', 'Pool') ? 'waits for the pool' : implode(', ', $b->getAwaitingInfo()), "\n";
$row = $kept->fetch(PDO::FETCH_ASSOC);
echo 'the statement still answers: ', $row['answer'], "\n";
unset($kept);
$idB = await($b, timeout(5000));
echo 'B got the same connection: ', var_export($idB === (int) $row['id'], true), ', ', $state(), "\n";

// 2. stored in a service object that outlives the request's coroutine, no waiter
final class Repository
{
    public ?PDOStatement $find = null;
}
$repo = new Repository();
await(spawn(function () use ($pdo, $repo) {
    $repo->find = $pdo->prepare('SELECT ? * 2');
}));
echo 'stored in a service: ', $state(), "\n";
$c = spawn(fn () => $pdo->query('SELECT 1')->fetchColumn());
while (!$c->isStarted() || !$c->isSuspended()) {
    suspend();
}
echo 'C: ', str_starts_with($c->getAwaitingInfo()[0] ?? '', 'Pool') ? 'waits for the pool' : implode(', ', $c->getAwaitingInfo()), "\n";
$repo->find->execute([21]);
echo 'the stored statement runs: ', $repo->find->fetchColumn(), "\n";
$repo->find = null;
echo 'C: ', await($c, timeout(5000)), ', ', $state(), "\n";
echo 'pool: ', count($pool), "\n";
?>
--EXPECT--
A ended, statement returned: active 1, idle 0
B: waits for the pool
the statement still answers: 42
B got the same connection: true, active 0, idle 1
stored in a service: active 1, idle 0
C: waits for the pool
the stored statement runs: 42
C: 1, active 0, idle 1
pool: 1
