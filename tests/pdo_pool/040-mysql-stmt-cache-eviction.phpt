--TEST--
PDO pool (mysql, native prepares): a statement cache of size 2 on one connection keeps at most 2 statements open on the server (Prepared_stmt_count) while 3 distinct SQL strings are used, in blocks (hits within a block: 6 prepares for 30 uses) and round-robin (every use misses); an evicted statement is closed on the server (Com_stmt_close)
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
$status = fn (string $name) => (int) $mon->query("SHOW GLOBAL STATUS LIKE '$name'")->fetch(PDO::FETCH_NUM)[1];
$sqls = ['SELECT ? + 1', 'SELECT ? + 2', 'SELECT ? + 3'];
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_EMULATE_PREPARES => false, PDO::ATTR_POOL_STMT_CACHE_SIZE => 2]);

$patterns = [
    'blocks of 5' => fn ($i) => intdiv($i, 5) % 3,
    'round-robin' => fn ($i) => $i % 3,
];
foreach ($patterns as $name => $pick) {
    $prepares = $status('Com_stmt_prepare');
    $closes = $status('Com_stmt_close');
    $most = 0;
    $wrong = 0;
    for ($i = 0; $i < 30; $i++) {
        $k = $pick($i);
        $wrong += await(spawn(function () use ($pdo, $sqls, $k, $i) {
            $st = $pdo->prepare($sqls[$k]);
            $st->execute([$i * 10]);
            return (int) $st->fetchColumn() === $i * 10 + $k + 1 ? 0 : 1;
        }));
        pool_settle_mysql($pdo);
        $most = max($most, $status('Prepared_stmt_count'));
    }
    echo "$name: server prepares ", $status('Com_stmt_prepare') - $prepares, ', closed ', $status('Com_stmt_close') - $closes,
        ", open on the server at most $most, now ", $status('Prepared_stmt_count'), ", wrong answers $wrong\n";
}
// The pool (and its cached statements) goes while the server is up: mysqlnd leaks a statement
// closed on a dead connection, stock PHP alike, and the server stops in a shutdown function.
unset($pdo);
?>
--EXPECT--
blocks of 5: server prepares 6, closed 4, open on the server at most 2, now 2, wrong answers 0
round-robin: server prepares 30, closed 30, open on the server at most 2, now 2, wrong answers 0
