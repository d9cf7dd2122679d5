--TEST--
PDO pool (mysql, PHP 8.4+): a cached statement let go with an unbuffered result half read is reset by reading the rest; a cancellation that comes during that wait is the coroutine's (it ends cancelled, it does not go on), and the statement is not taken back
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
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_POOL_STMT_CACHE_SIZE => 4,
    PDO::ATTR_EMULATE_PREPARES => false, Pdo\Mysql::ATTR_USE_BUFFERED_QUERY => false]);
// the second row comes 5 s after the first (64 KiB, more than the server buffers before it
// sends): the reset of a statement let go after one row waits for the second
$sql = "SELECT x, IF(x = 0, REPEAT('a', 65536), SLEEP(x)) FROM (SELECT 0 AS x UNION ALL SELECT 5) AS t";
$fetched = new Async\Channel(1);
$a = spawn(function () use ($pdo, $sql, $fetched) {
    $st = $pdo->prepare($sql);
    $st->execute();
    echo 'first row: ', $st->fetch(PDO::FETCH_NUM)[0], "\n";
    $fetched->send(true);
    $st = null; // the cache takes it back: closeCursor() reads the rest
    echo "went on after the reset\n";
});
$fetched->recv();
$t0 = hrtime(true);
$a->cancel();
try {
    await($a);
    echo "not cancelled\n";
} catch (Async\AsyncCancellation $e) {
    echo 'cancelled, within 2 s: ', var_export(ms_since($t0) < 2000, true), "\n";
}
echo 'the pool works: ', await(spawn(function () use ($pdo) {
    $st = $pdo->prepare('SELECT 42');
    $st->execute();
    return $st->fetchColumn();
})), "\n";
?>
--EXPECT--
first row: 0
cancelled, within 2 s: true
the pool works: 42
