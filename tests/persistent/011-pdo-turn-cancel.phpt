--TEST--
Persistent: PDO constructions of one persistent key take turns while one connects; a coroutine cancelled while it waits for its turn leaves it to the next, nobody hangs
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
--FILE--
<?php
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/persist.inc';
use function Async\{spawn, await, suspend};

$db = servers_start_mariadb();
$dsn = "mysql:host=127.0.0.1;port={$db['port']}";
$open = fn() => new PDO($dsn, 'root', '', [PDO::ATTR_PERSISTENT => true, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$id = fn(PDO $p) => (int) $p->query('SELECT CONNECTION_ID()')->fetchColumn();

$a = spawn(fn() => $id($open()));   // connects: its construction holds the key's turn
$b = spawn(fn() => $id($open()));   // waits for the turn
$c = spawn(fn() => $id($open()));   // waits behind it
suspend();                           // all three ran up to their first wait
$waits = fn($co) => str_contains(json_encode($co->getAwaitingInfo()), 'persistent connection turn');
echo 'the second and third wait for the turn: ', var_export($waits($b) && $waits($c) && !$waits($a), true), "\n";
$b->cancel();
try {
    await($b);
    echo "b was not cancelled\n";
} catch (Async\AsyncCancellation $e) {
    echo "b cancelled while waiting\n";
}
$ra = await($a);
$rc = await($c);
echo 'a and c got their connections: ', var_export($ra > 0 && $rc > 0 && $ra !== $rc, true), "\n";
echo 'and one more afterwards (the turn is free): ', var_export(await(spawn(fn() => $id($open()))) > 0, true), "\n";
?>
--EXPECT--
the second and third wait for the turn: true
b cancelled while waiting
a and c got their connections: true
and one more afterwards (the turn is free): true
