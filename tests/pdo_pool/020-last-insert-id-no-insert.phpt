--TEST--
PDO pool (mysql, pgsql, sqlite): a coroutine that inserted nothing reads from lastInsertId() what a connection of its own reads ("0"; pgsql: lastval()'s error), not the id another coroutine just made on the same pooled connection
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['pdo_mysql', 'pdo_pgsql', 'pdo_sqlite']) ?: servers_skip_reason('postgres', []);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
pdo_pgsql
pdo_sqlite
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
use function Async\{spawn, await};

function last_id(PDO $pdo): string
{
    try {
        $id = $pdo->lastInsertId();
        return $id === false ? 'error' : $id;
    } catch (PDOException $e) {
        return 'error';
    }
}
$my = pool_start_mariadb();
$pg = servers_start_postgres();
$file = pool_sqlite_file();
$pool = [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MAX => 1, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION];
$drivers = [
    'mysql' => [fn (array $o) => new PDO($my['dsn'], 'root', '', $o), 'INT PRIMARY KEY AUTO_INCREMENT'],
    'pgsql' => [fn (array $o) => new PDO($pg['dsn'], 'postgres', '', $o), 'SERIAL PRIMARY KEY'],
    'sqlite' => [fn (array $o) => new PDO("sqlite:$file", null, null, $o), 'INTEGER PRIMARY KEY AUTOINCREMENT'],
];
foreach ($drivers as $name => [$connect, $key]) {
    $own = $connect([PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $own->exec("CREATE TABLE items (id $key, name TEXT)");
    $pdo = $connect($pool);
    $made = await(spawn(function () use ($pdo) {
        $pdo->exec("INSERT INTO items (name) VALUES ('x')");
        return $pdo->lastInsertId();
    }));
    // the one pooled connection's last statement was that insert
    $c = await(spawn(fn () => last_id($pdo)));
    $fresh = $connect([PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    echo "$name: the inserter read $made; a coroutine that inserted nothing reads $c, a connection of its own ", last_id($fresh), "\n";
}
?>
--EXPECT--
mysql: the inserter read 1; a coroutine that inserted nothing reads 0, a connection of its own 0
pgsql: the inserter read 1; a coroutine that inserted nothing reads error, a connection of its own error
sqlite: the inserter read 1; a coroutine that inserted nothing reads 0, a connection of its own 0
