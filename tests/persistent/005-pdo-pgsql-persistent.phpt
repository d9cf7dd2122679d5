--TEST--
Persistent: PDO::ATTR_PERSISTENT with pdo_pgsql: constructions of one key in several coroutines at once, one server session per coroutine while held (pg_backend_pid()), kept and reused after the coroutine ended or freed its object
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pdo_pgsql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pdo
pdo_pgsql
--FILE--
<?php
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/persist.inc';

$db = servers_start_postgres();
persist_rules(
    fn() => new PDO($db['dsn'], 'postgres', '', [PDO::ATTR_PERSISTENT => true, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]),
    fn(PDO $p) => (int) $p->query('SELECT pg_backend_pid()')->fetchColumn(),
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
