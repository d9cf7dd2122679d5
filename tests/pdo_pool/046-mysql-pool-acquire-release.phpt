--TEST--
PDO pool (mysql): getPool()->acquire() hands out a physical connection for direct use (a PDO object that is not the template and not pooled itself, with a session of its own) and counts it active; while MAX is held that way a template call waits for the pool, and release() gives the connection back to it
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
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 2]);
$pool = $pdo->getPool();
$template = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();

await(spawn(function () use ($pdo, $pool, $template) {
    $a = $pool->acquire();
    $b = $pool->acquire();
    echo 'acquired: ', get_debug_type($a), ', the template: ', var_export($a === $pdo, true),
        ', pooled itself: ', var_export($a->getAttribute(PDO::ATTR_POOL_ENABLED), true), ', ', get_debug_type($a->getPool()), "\n";
    $ids = [(int) $a->query('SELECT CONNECTION_ID()')->fetchColumn(), (int) $b->query('SELECT CONNECTION_ID()')->fetchColumn()];
    echo 'sessions: ', count(array_unique([...$ids, $template])), " distinct with the template's\n";
    echo 'pool: ', count($pool), ', active ', $pool->activeCount(), ', idle ', $pool->idleCount(), "\n";

    $c = spawn(fn () => (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn());
    while (!$c->isStarted() || !$c->isSuspended()) {
        suspend();
    }
    echo 'a template call: ', str_starts_with($c->getAwaitingInfo()[0] ?? '', 'Pool') ? 'waits for the pool' : implode(', ', $c->getAwaitingInfo()), "\n";
    $pool->release($b);
    $got = await($c, timeout(5000));
    echo 'after release(): it ran on the released connection: ', var_export($got === $ids[1], true), "\n";
    $pool->release($a);
}));
echo 'at the end: pool ', count($pool), ', active ', $pool->activeCount(), ', idle ', $pool->idleCount(), "\n";
?>
--EXPECT--
acquired: PDO, the template: false, pooled itself: false, null
sessions: 3 distinct with the template's
pool: 2, active 2, idle 0
a template call: waits for the pool
after release(): it ran on the released connection: true
at the end: pool 2, active 0, idle 2
