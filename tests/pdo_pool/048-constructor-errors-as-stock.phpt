--TEST--
PDO pool: the constructor connects as PHP always does, so a connection it cannot make throws the same PDOException as without pooling (mysql and pgsql to a closed port, sqlite in a missing directory), also with MIN > 0 and from a coroutine
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
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

$port = servers_free_port();    // nobody listens there
$dsns = [
    'mysql' => ["mysql:host=127.0.0.1;port=$port", 'root'],
    'pgsql' => ["pgsql:host=127.0.0.1;port=$port;dbname=postgres;connect_timeout=5", 'postgres'],
    'sqlite' => ['sqlite:' . sys_get_temp_dir() . '/no-such-dir-' . getmypid() . '/x.db', null],
];
foreach ($dsns as $name => [$dsn, $user]) {
    $stock = pool_thrown(fn () => new PDO($dsn, $user, ''));
    foreach (['MIN 0' => 0, 'MIN 2' => 2] as $label => $min) {
        $options = [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MIN => $min];
        $outside = pool_thrown(fn () => new PDO($dsn, $user, '', $options));
        $inside = await(spawn(fn () => pool_thrown(fn () => new PDO($dsn, $user, '', $options))));
        echo "$name, $label: ", $outside === $stock && $inside === $stock ? 'as stock' : "outside: $outside; in a coroutine: $inside; stock: $stock", "\n";
    }
    echo '  ', explode(':', $stock)[0], "\n";
}
?>
--EXPECT--
mysql, MIN 0: as stock
mysql, MIN 2: as stock
  PDOException
pgsql, MIN 0: as stock
pgsql, MIN 2: as stock
  PDOException
sqlite, MIN 0: as stock
sqlite, MIN 2: as stock
  PDOException
