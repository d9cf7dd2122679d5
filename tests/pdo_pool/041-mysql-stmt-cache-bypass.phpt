--TEST--
PDO pool (mysql): what bypasses the statement cache (size 8, MAX 1): emulated prepares (pdo_mysql's default) make no server-side prepare at all; prepare() with options and a statement class of the user's prepare on the server every time and leave nothing open there once freed
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

class MyStatement extends PDOStatement
{
    protected function __construct() {}
}
$db = pool_start_mariadb();
$mon = pool_monitor_mysql($db);
$status = fn (string $name) => (int) $mon->query("SHOW GLOBAL STATUS LIKE '$name'")->fetch(PDO::FETCH_NUM)[1];
$cache = [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_POOL_STMT_CACHE_SIZE => 8];
$cases = [
    'emulated prepares' => [pool_mysql($db, $cache), []],
    'prepare() with options' => [pool_mysql($db, $cache + [PDO::ATTR_EMULATE_PREPARES => false]), [PDO::ATTR_CURSOR => PDO::CURSOR_FWDONLY]],
    'a statement class' => [pool_mysql($db, $cache + [PDO::ATTR_EMULATE_PREPARES => false, PDO::ATTR_STATEMENT_CLASS => [MyStatement::class]]), []],
];
foreach ($cases as $name => [$pdo, $options]) {
    $prepares = $status('Com_stmt_prepare');
    $wrong = 0;
    for ($i = 0; $i < 20; $i++) {
        $wrong += await(spawn(function () use ($pdo, $options, $i) {
            $st = $pdo->prepare('SELECT ? * 3', $options);
            $st->execute([$i]);
            return (int) $st->fetchColumn() === $i * 3 ? 0 : 1;
        }));
    }
    pool_settle_mysql($pdo);
    echo "$name: server prepares ", $status('Com_stmt_prepare') - $prepares, ', open on the server ', $status('Prepared_stmt_count'),
        ", wrong answers $wrong\n";
}
?>
--EXPECT--
emulated prepares: server prepares 0, open on the server 0, wrong answers 0
prepare() with options: server prepares 20, open on the server 0, wrong answers 0
a statement class: server prepares 20, open on the server 0, wrong answers 0
