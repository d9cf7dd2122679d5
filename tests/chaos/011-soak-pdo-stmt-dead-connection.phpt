--TEST--
Regression (found by the soak): a pooled connection the server dropped is destroyed also when the call that meets it is PDOStatement::execute() (emulated prepares, pdo_mysql's default): the next call runs on a new connection, as after PDO::query() or a native prepare()
--DESCRIPTION--
docs/pdo-pool.md: "Broken connections are destroyed, never handed out again: ... a connection
the server dropped (a MySQL client error 2xxx whose ping fails)". With emulated prepares,
prepare() makes no round trip and the error comes from PDOStatement::execute(); before the fix
the pool did not look at statements' calls, and the dead connection went back to the pool and
was handed out again and again.
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
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await};

$db = servers_start_mariadb();
$dsn = "mysql:host=127.0.0.1;port={$db['port']}";
$side = new PDO($dsn, 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
foreach (['query' => true, 'prepare+execute, emulated' => true, 'prepare+execute, native' => false] as $how => $emulate) {
    $pdo = new PDO($dsn, 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_POOL_ENABLED => true,
        PDO::ATTR_POOL_MAX => 1, PDO::ATTR_EMULATE_PREPARES => $emulate]);
    $killed = await(spawn(fn () => (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn()));
    $side->exec("KILL $killed");
    echo "$how, after KILL of the pooled connection:\n";
    for ($i = 1; $i <= 3; $i++) {
        echo "  call $i: ", await(spawn(function () use ($pdo, $how, $killed) {
            try {
                if ($how === 'query') {
                    $id = (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
                } else {
                    $st = $pdo->prepare('SELECT CONNECTION_ID()');
                    $st->execute();
                    $id = (int) $st->fetchColumn();
                }
                return $id === $killed ? 'the killed connection?!' : 'a new connection';
            } catch (PDOException $e) {
                return $e->getMessage();
            }
        })), "\n";
    }
}
?>
--EXPECT--
query, after KILL of the pooled connection:
  call 1: SQLSTATE[HY000]: General error: 2006 MySQL server has gone away
  call 2: a new connection
  call 3: a new connection
prepare+execute, emulated, after KILL of the pooled connection:
  call 1: SQLSTATE[HY000]: General error: 2006 MySQL server has gone away
  call 2: a new connection
  call 3: a new connection
prepare+execute, native, after KILL of the pooled connection:
  call 1: SQLSTATE[HY000]: General error: 2006 MySQL server has gone away
  call 2: a new connection
  call 3: a new connection
