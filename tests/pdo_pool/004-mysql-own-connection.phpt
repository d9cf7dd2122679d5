--TEST--
PDO pool (mysql): one pooled PDO, 6 coroutines each run SELECT SLEEP(0.2): each runs on a connection of its own (distinct CONNECTION_ID(), none the template's), the queries overlap (about 0.2 s in all, not 1.2 s), and the pool holds 6 connections afterwards
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
use function Async\{spawn, await_all_or_fail};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 8]);
$n = 6;
// outside coroutines: the template's own connection
$own = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
echo 'before: ', count($pdo->getPool()), " pooled\n";

$t0 = hrtime(true);
$rows = await_all_or_fail(array_map(fn ($i) => spawn(function () use ($pdo, $i) {
    $t = hrtime(true);
    $row = $pdo->query("SELECT SLEEP(0.2) AS s, CONNECTION_ID() AS id, $i AS i")->fetch(PDO::FETCH_ASSOC);
    return [(int) $row['id'], (int) $row['i'], ms_since($t)];
}), range(1, $n)));
$total = ms_since($t0);

$ids = array_column($rows, 0);
echo 'answers in order: ', implode(',', array_column($rows, 1)) === implode(',', range(1, $n)) ? 'yes' : 'no', "\n";
echo 'distinct connections: ', count(array_unique($ids)), " of $n\n";
echo 'the template\'s among them: ', var_export(in_array($own, $ids, true), true), "\n";
echo 'each took its 200 ms: ', var_export(min(array_column($rows, 2)) >= 199, true), "\n";
// one after the other: 1.2 s
echo $total < 200 + 300 * slow_factor() ? "together: about 0.2 s\n" : "took $total ms\n";
$pool = $pdo->getPool();
echo 'after: ', count($pool), ' pooled, ', $pool->idleCount(), ' idle, ', $pool->activeCount(), " active\n";
// after the first spawn() the main flow is a coroutine too: a pooled connection, not the template's
$mainId = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
echo 'main flow now: ', $mainId === $own ? 'the template\'s' : (in_array($mainId, $ids, true) ? 'a pooled one' : 'another'), "\n";
?>
--EXPECT--
before: 0 pooled
answers in order: yes
distinct connections: 6 of 6
the template's among them: false
each took its 200 ms: true
together: about 0.2 s
after: 6 pooled, 6 idle, 0 active
main flow now: a pooled one
