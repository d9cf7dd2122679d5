--TEST--
PDO pool (mysql, native prepares): with PDO::ATTR_POOL_STMT_CACHE_SIZE 8, 100 sequential coroutines (MAX 1: one physical connection) that each prepare the same SQL make one server-side prepare in all (Com_stmt_prepare), not 100 as with the cache off; every coroutine still gets its own parameters' rows, also after one left its statement half-fetched
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
use function Async\{spawn, await};

$db = pool_start_mariadb();
$mon = pool_monitor_mysql($db);
$mon->exec('CREATE TABLE nums (n INT PRIMARY KEY)');
$mon->exec('INSERT INTO nums VALUES ' . implode(',', array_map(fn ($i) => "($i)", range(1, 200))));
$status = fn (string $name) => (int) $mon->query("SHOW GLOBAL STATUS LIKE '$name'")->fetch(PDO::FETCH_NUM)[1];
$sql = 'SELECT n, n * 2 AS twice FROM nums WHERE n >= ? ORDER BY n LIMIT 3';

foreach ([0, 8] as $size) {
    $pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_EMULATE_PREPARES => false,
        PDO::ATTR_POOL_STMT_CACHE_SIZE => $size]);
    $prepares = $status('Com_stmt_prepare');
    $executes = $status('Com_stmt_execute');
    $wrong = 0;
    for ($i = 1; $i <= 100; $i++) {
        $wrong += await(spawn(function () use ($pdo, $sql, $i) {
            $st = $pdo->prepare($sql);
            $st->execute([$i]);
            if ($i % 10 === 0) {
                return $st->fetch(PDO::FETCH_NUM) == [$i, $i * 2] ? 0 : 1;   // the rest left unread
            }
            return $st->fetchAll(PDO::FETCH_NUM) == [[$i, $i * 2], [$i + 1, ($i + 1) * 2], [$i + 2, ($i + 2) * 2]] ? 0 : 1;
        }));
    }
    echo "cache $size: server prepares ", $status('Com_stmt_prepare') - $prepares, ', executes ', $status('Com_stmt_execute') - $executes,
        ", wrong answers $wrong, pool ", count($pdo->getPool()), "\n";
    unset($pdo);
}
?>
--EXPECT--
cache 0: server prepares 100, executes 100, wrong answers 0, pool 1
cache 8: server prepares 1, executes 100, wrong answers 0, pool 1
