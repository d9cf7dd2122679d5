--TEST--
Regression (found by the soak): a coroutine cancelled inside PDOStatement::execute() of a pooled PDO (mysql, emulated and native prepares) breaks its connection as a cancelled PDO::query() does: it is never handed out again, and the next coroutines' calls work
--DESCRIPTION--
docs/pdo-pool.md: "Broken connections are destroyed, never handed out again: a call cancelled or
timed out mid-query ...". Before the fix a cancelled PDOStatement::execute() left the server in
the middle of a result and the connection went back to the pool when the statement was freed:
the next caller got 2006 "MySQL server has gone away".
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
use function Async\{spawn, await, delay};

$db = servers_start_mariadb();
$dsn = "mysql:host=127.0.0.1;port={$db['port']}";
foreach (['query' => true, 'prepare+execute, emulated' => true, 'prepare+execute, native' => false] as $how => $emulate) {
    $pdo = new PDO($dsn, 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_POOL_ENABLED => true,
        PDO::ATTR_POOL_MAX => 1, PDO::ATTR_EMULATE_PREPARES => $emulate]);
    $a = spawn(function () use ($pdo, $how) {
        if ($how === 'query') {
            $pdo->query('SELECT SLEEP(1)');
        } else {
            $st = $pdo->prepare('SELECT SLEEP(1)');
            $st->execute();
        }
    });
    delay(200);
    $a->cancel();
    try {
        await($a);
    } catch (Throwable $e) {
        echo "$how, cancelled: ", get_class($e), "\n";
    }
    for ($i = 1; $i <= 2; $i++) {
        $got = await(spawn(function () use ($pdo) {
            try {
                return $pdo->query('SELECT 41 + 1')->fetchColumn();
            } catch (PDOException $e) {
                return $e->getMessage();
            }
        }));
        echo "  the next call $i: $got\n";
    }
}
?>
--EXPECT--
query, cancelled: Async\AsyncCancellation
  the next call 1: 42
  the next call 2: 42
prepare+execute, emulated, cancelled: Async\AsyncCancellation
  the next call 1: 42
  the next call 2: 42
prepare+execute, native, cancelled: Async\AsyncCancellation
  the next call 1: 42
  the next call 2: 42
