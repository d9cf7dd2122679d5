--TEST--
PDO pool (pgsql, ERRMODE_SILENT): errorCode()/errorInfo() are per coroutine: A's failed SQL shows in A's, B's good SQL run in between on the same backend (MAX 1) shows 00000 in B's; a failed statement in A's transaction aborts A's transaction only (A's next statement gets 25P02, B's run meanwhile on another backend succeed) until A rolls back; a coroutine that made no call sees null
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
use function Async\{spawn, await_all_or_fail, timeout};

$db = servers_start_postgres();
$err = fn (PDO $p) => var_export($p->errorCode(), true) . ' ' . ($p->errorInfo()[1] ?? 'null');

// 1. MAX 1: turns on one backend
$pdo = pool_pgsql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT]);
$toA = new Async\Channel(1);
$toB = new Async\Channel(1);
$log = [];
$a = spawn(function () use ($pdo, $err, $toA, $toB, &$log) {
    $log[] = 'A before any call: ' . $err($pdo);
    $pdo->query('SELECT * FROM nosuchtable');
    $log[] = 'A: ' . $err($pdo);
    $toB->send(1);
    $toA->recv();
    $log[] = 'A after B\'s call: ' . $err($pdo);
});
$b = spawn(function () use ($pdo, $err, $toA, $toB, &$log) {
    $toB->recv();
    $log[] = 'B good query: ' . $pdo->query('SELECT 42')->fetchColumn() . ', ' . $err($pdo);
    $toA->send(1);
});
await_all_or_fail([$a, $b], timeout(5000));
echo implode("\n", $log), "\n";

// 2. MAX 2: A's transaction is aborted by its error, B is not touched
$two = pool_pgsql($db, [PDO::ATTR_POOL_MAX => 2, PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT]);
$log = [];
$a = spawn(function () use ($two, $err, $toA, $toB, &$log) {
    $two->beginTransaction();
    $two->exec('INSERT INTO nosuchtable VALUES (1)');
    $log[] = 'A in its transaction, after its error: ' . $err($two);
    $toB->send(1);
    $toA->recv();
    $r = $two->query('SELECT 1');
    $log[] = 'A\'s next statement: ' . var_export($r, true) . ', ' . $err($two) . ', inTransaction ' . var_export($two->inTransaction(), true);
    $two->rollBack();
    $log[] = 'A after rollBack: ' . $two->query('SELECT 2')->fetchColumn() . ', ' . $err($two) . ', inTransaction ' . var_export($two->inTransaction(), true);
});
$b = spawn(function () use ($two, $err, $toA, $toB, &$log) {
    $toB->recv();
    $two->beginTransaction();
    $log[] = 'B meanwhile: ' . $two->query('SELECT 3')->fetchColumn() . ', ' . $err($two);
    $two->commit();
    $toA->send(1);
});
await_all_or_fail([$a, $b], timeout(5000));
echo implode("\n", $log), "\n";
?>
--EXPECT--
A before any call: NULL null
A: '42P01' 7
B good query: 42, '00000' null
A after B's call: '42P01' 7
A in its transaction, after its error: '42P01' 7
B meanwhile: 3, '00000' null
A's next statement: false, '25P02' 7, inTransaction true
A after rollBack: 2, '00000' null, inTransaction false
