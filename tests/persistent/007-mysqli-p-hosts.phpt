--TEST--
Persistent: mysqli "p:" hosts in several coroutines at once: one connection per coroutine while held (CONNECTION_ID()); a link freed or closed by one coroutine is the next one's (mysqli keeps its free links per key)
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['mysqli']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
mysqlnd
mysqli
--FILE--
<?php
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/persist.inc';
use function Async\{spawn, await};

mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
$db = servers_start_mariadb();
$port = $db['port'];
$open = fn() => new mysqli('p:127.0.0.1', 'root', '', '', $port);
$id = fn(mysqli $m) => (int) $m->query('SELECT CONNECTION_ID()')->fetch_row()[0];
persist_rules($open, $id, 4);

// close() by one coroutine: the next coroutine gets that link.
$x = await(spawn(function () use ($open, $id) {
    $m = $open();
    $x = $id($m);
    $m->close();
    return $x;
}));
echo 'closed by one coroutine, the next one gets it: ', var_export(await(spawn(fn() => $id($open()))) === $x, true), "\n";
?>
--EXPECT--
4 coroutines at once: 4 connections
each kept its own: true
asked twice in one coroutine: another connection
a later coroutine reuses a kept one: true
held by a live coroutine: another one gets a different connection: true
its object freed: the next coroutine gets it: true
closed by one coroutine, the next one gets it: true
