--TEST--
PDO pool (pgsql, SERIAL): lastInsertId() is per coroutine: A and B insert in turns (MAX 1: on one backend; MAX 2), each reads its own id afterwards, with lastInsertId() and lastInsertId('items_id_seq'), after the connection went back
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pdo_pgsql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pdo
pdo_pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
use function Async\{spawn, await, await_all_or_fail, timeout};

$db = servers_start_postgres();
function last_id(PDO $pdo, ?string $seq = null): string
{
    try {
        $id = $seq === null ? $pdo->lastInsertId() : $pdo->lastInsertId($seq);
        return $id === false ? 'error' : $id;
    } catch (PDOException $e) {
        return 'error';
    }
}

foreach ([1, 2] as $max) {
    $pdo = pool_pgsql($db, [PDO::ATTR_POOL_MAX => $max]);
    $pdo->exec('DROP TABLE IF EXISTS items');
    $pdo->exec('CREATE TABLE items (id SERIAL PRIMARY KEY, name TEXT)');
    $toA = new Async\Channel(1);
    $toB = new Async\Channel(1);
    $log = [];
    $a = spawn(function () use ($pdo, $toA, $toB, &$log) {
        $pdo->exec("INSERT INTO items (name) VALUES ('a1')");
        $toB->send(1);
        $toA->recv();
        $log[] = 'A reads ' . last_id($pdo) . ' and ' . last_id($pdo, 'items_id_seq') . ', its row is ' . $pdo->query("SELECT id FROM items WHERE name = 'a1'")->fetchColumn();
        $pdo->exec("INSERT INTO items (name) VALUES ('a2')");
        $toB->send(2);
        $toA->recv();
        $log[] = 'A reads ' . last_id($pdo) . ' and ' . last_id($pdo, 'items_id_seq') . ', its row is ' . $pdo->query("SELECT id FROM items WHERE name = 'a2'")->fetchColumn();
    });
    $b = spawn(function () use ($pdo, $toA, $toB, &$log) {
        $toB->recv();
        $st = $pdo->prepare('INSERT INTO items (name) VALUES (?)');
        $st->execute(['b1']);
        unset($st);
        $toA->send(1);
        $toB->recv();
        $log[] = 'B reads ' . last_id($pdo) . ' and ' . last_id($pdo, 'items_id_seq') . ', its row is ' . $pdo->query("SELECT id FROM items WHERE name = 'b1'")->fetchColumn();
        $toA->send(2);
    });
    await_all_or_fail([$a, $b], timeout(5000));
    echo "== MAX $max\n", implode("\n", $log), "\n";
}
?>
--EXPECT--
== MAX 1
A reads 1 and 1, its row is 1
B reads 2 and 2, its row is 2
A reads 3 and 3, its row is 3
== MAX 2
A reads 1 and 1, its row is 1
B reads 2 and 2, its row is 2
A reads 3 and 3, its row is 3
