--TEST--
PDO pool (mysql, ERRMODE_SILENT): errorCode()/errorInfo() are per coroutine: A's failed SQL shows in A's, B's good SQL run in between (on the same physical connection with MAX 1, or at the same time on two bound ones) shows 00000 in B's, both while bound and after the connection went back; a coroutine that made no call sees null and ["", null, null]
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
use function Async\{spawn, await, await_all_or_fail, timeout};

$db = pool_start_mariadb();
$err = fn (PDO $p) => var_export($p->errorCode(), true) . ' ' . json_encode($p->errorInfo());

// 1. MAX 1: A and B take turns on one physical connection
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT]);
$toA = new Async\Channel(1);
$toB = new Async\Channel(1);
$log = [];
$a = spawn(function () use ($pdo, $err, $toA, $toB, &$log) {
    $log[] = 'A before any call: ' . $err($pdo);
    $log[] = 'A bad query returns ' . var_export($pdo->query('SELECT * FROM nosuchtable'), true);
    $log[] = 'A: ' . $err($pdo);
    $toB->send(1);
    $toA->recv();
    $log[] = 'A after B\'s call: ' . $err($pdo);
    $pdo->exec('DO 1');
    $log[] = 'A after a good call: ' . $err($pdo);
    $toB->send(2);
});
$b = spawn(function () use ($pdo, $err, $toA, $toB, &$log) {
    $toB->recv();
    $log[] = "B before any call: " . $err($pdo);
    $log[] = 'B good query: ' . $pdo->query('SELECT 42')->fetchColumn() . ', on A\'s connection';
    $log[] = 'B: ' . $err($pdo);
    $toA->send(1);
    $toB->recv();
    $log[] = 'B at the end: ' . $err($pdo);
});
await_all_or_fail([$a, $b], timeout(5000));
echo implode("\n", $log), "\n";

// 2. MAX 2: both bound at once (pinned by a transaction), errors made and read in turns
$two = pool_mysql($db, [PDO::ATTR_POOL_MAX => 2, PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT]);
$log = [];
$a = spawn(function () use ($two, $err, $toA, $toB, &$log) {
    $two->beginTransaction();
    $two->exec('INSERT INTO nosuchtable VALUES (1)');
    $toB->send(1);
    $toA->recv();
    $log[] = 'A bound, after its error: ' . $err($two) . ', inTransaction ' . var_export($two->inTransaction(), true);
    $two->rollBack();   // as on a private connection: rollBack() does not clear the error state
    $log[] = 'A after its rollBack: ' . $err($two);
    $toB->send(2);
    $toA->recv();
    $log[] = 'A after B\'s commit: ' . $err($two);
});
$b = spawn(function () use ($two, $err, $toA, $toB, &$log) {
    $toB->recv();
    $two->beginTransaction();
    $two->exec('DO 1');
    $log[] = 'B bound, after its good call: ' . $err($two) . ', inTransaction ' . var_export($two->inTransaction(), true);
    $toA->send(1);
    $toB->recv();
    $two->commit();
    $log[] = 'B after commit: ' . $err($two);
    $toA->send(2);
});
await_all_or_fail([$a, $b], timeout(5000));
echo implode("\n", $log), "\n";
echo 'main, no call made: ', $err($two), "\n";
?>
--EXPECT--
A before any call: NULL ["",null,null]
A bad query returns false
A: '42S02' ["42S02",1146,"Table 't.nosuchtable' doesn't exist"]
B before any call: NULL ["",null,null]
B good query: 42, on A's connection
B: '00000' ["00000",null,null]
A after B's call: '42S02' ["42S02",1146,"Table 't.nosuchtable' doesn't exist"]
A after a good call: '00000' ["00000",null,null]
B at the end: '00000' ["00000",null,null]
B bound, after its good call: '00000' ["00000",null,null], inTransaction true
A bound, after its error: '42S02' ["42S02",1146,"Table 't.nosuchtable' doesn't exist"], inTransaction true
A after its rollBack: '42S02' ["42S02",1146,"Table 't.nosuchtable' doesn't exist"]
B after commit: '00000' ["00000",null,null]
A after B's commit: '42S02' ["42S02",1146,"Table 't.nosuchtable' doesn't exist"]
main, no call made: NULL ["",null,null]
