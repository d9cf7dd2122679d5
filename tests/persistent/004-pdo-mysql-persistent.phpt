--TEST--
Persistent: PDO::ATTR_PERSISTENT with pdo_mysql: constructions of one key in several coroutines at once (no crash), one connection per coroutine while held (CONNECTION_ID()), kept and reused after the coroutine ended or freed its object
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

$db = servers_start_mariadb();
$dsn = "mysql:host=127.0.0.1;port={$db['port']}";
persist_rules(
    fn() => new PDO($dsn, 'root', '', [PDO::ATTR_PERSISTENT => true, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]),
    fn(PDO $p) => (int) $p->query('SELECT CONNECTION_ID()')->fetchColumn(),
    4,
);
?>
--EXPECT--
4 coroutines at once: 4 connections
each kept its own: true
asked twice in one coroutine: the same connection
a later coroutine reuses a kept one: true
held by a live coroutine: another one gets a different connection: true
its object freed: the next coroutine gets it: true
