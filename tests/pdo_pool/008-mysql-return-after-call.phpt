--TEST--
PDO pool (mysql): with MAX 1, a coroutine that ran a query (query()+fetch, exec(), prepare()+execute() with the statement freed) and then waits for something else does not hold the connection: another coroutine's queries run on that same connection meanwhile, and the first gets it back afterwards
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
use function Async\{spawn, await_all_or_fail, timeout};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1]);
$pool = $pdo->getPool();
$toA = new Async\Channel(1);
$toB = new Async\Channel(1);
$log = [];

$a = spawn(function () use ($pdo, $pool, $toA, $toB, &$log) {
    $id = $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
    $log[] = "A query on $id, then parked (active " . $pool->activeCount() . ')';
    $toB->send('go');
    $toA->recv();
    $pdo->exec('DO 1');
    $log[] = 'A exec, then parked (active ' . $pool->activeCount() . ')';
    $toB->send('go');
    $toA->recv();
    $st = $pdo->prepare('SELECT CONNECTION_ID() + ?');
    $st->execute([0]);
    $id = $st->fetchColumn();
    unset($st);
    $log[] = "A prepare+execute on $id, statement freed, then parked (active " . $pool->activeCount() . ')';
    $toB->send('go');
    $toA->recv();
    $log[] = 'A back on ' . $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
});
$b = spawn(function () use ($pdo, $toA, $toB, &$log) {
    for ($round = 1; $round <= 3; $round++) {
        $toB->recv();
        $log[] = "B round $round on " . $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
        $toA->send('go');
    }
});
await_all_or_fail([$a, $b], timeout(5000));

// one connection in all: its id is the same everywhere
preg_match_all('/on (\d+)/', implode("\n", $log), $m);
$ids = array_unique($m[1]);
echo str_replace(reset($ids), 'C', implode("\n", $log)), "\n";
echo 'connections: ', count($ids), ', pool ', count($pool), "\n";
?>
--EXPECT--
A query on C, then parked (active 0)
B round 1 on C
A exec, then parked (active 0)
B round 2 on C
A prepare+execute on C, statement freed, then parked (active 0)
B round 3 on C
A back on C
connections: 1, pool 1
