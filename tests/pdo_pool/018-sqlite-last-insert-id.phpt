--TEST--
PDO pool (sqlite file): lastInsertId() is per coroutine: A and B insert in turns on the one pooled connection (MAX 1), each reads its own id afterwards although the connection's last rowid is the other's
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--EXTENSIONS--
pdo
pdo_sqlite
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
use function Async\{spawn, await, await_all_or_fail, timeout};

$file = pool_sqlite_file();
$pdo = new PDO("sqlite:$file", null, null, [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MAX => 1,
    PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$pdo->exec('CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)');
$toA = new Async\Channel(1);
$toB = new Async\Channel(1);
$log = [];
$a = spawn(function () use ($pdo, $toA, $toB, &$log) {
    $pdo->exec("INSERT INTO items (name) VALUES ('a1')");
    $toB->send(1);
    $toA->recv();
    $log[] = 'A reads ' . $pdo->lastInsertId() . ', its row is ' . $pdo->query("SELECT id FROM items WHERE name = 'a1'")->fetchColumn();
    $pdo->exec("INSERT INTO items (name) VALUES ('a2')");
    $toB->send(2);
    $toA->recv();
    $log[] = 'A reads ' . $pdo->lastInsertId() . ', its row is ' . $pdo->query("SELECT id FROM items WHERE name = 'a2'")->fetchColumn();
});
$b = spawn(function () use ($pdo, $toA, $toB, &$log) {
    $toB->recv();
    $st = $pdo->prepare('INSERT INTO items (name) VALUES (?)');
    $st->execute(['b1']);
    unset($st);
    $toA->send(1);
    $toB->recv();
    $log[] = 'B reads ' . $pdo->lastInsertId() . ', its row is ' . $pdo->query("SELECT id FROM items WHERE name = 'b1'")->fetchColumn();
    $toA->send(2);
});
await_all_or_fail([$a, $b], timeout(5000));
echo implode("\n", $log), "\n";
echo 'pool: ', count($pdo->getPool()), "\n";
?>
--EXPECT--
A reads 1, its row is 1
B reads 2, its row is 2
A reads 3, its row is 3
pool: 1
