--TEST--
Persistent: PDO::ATTR_PERSISTENT with pdo_sqlite (a file database): one connection per coroutine while held (told apart by a TEMP table, private to a connection), kept and reused after the coroutine ended or freed its object
--EXTENSIONS--
pdo
pdo_sqlite
--FILE--
<?php
require __DIR__ . '/persist.inc';

$file = tempnam(sys_get_temp_dir(), 'persist-sqlite');
register_shutdown_function(fn() => @unlink($file));
persist_rules(
    fn() => new PDO("sqlite:$file", null, null, [PDO::ATTR_PERSISTENT => true, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]),
    function (PDO $p) {
        $p->exec('CREATE TEMP TABLE IF NOT EXISTS me (id TEXT)');
        $v = $p->query('SELECT id FROM me')->fetchColumn();
        if ($v === false) {
            $v = bin2hex(random_bytes(8));
            $p->exec("INSERT INTO me VALUES ('$v')");
        }
        return $v;
    },
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
