--TEST--
Persistent: PDO::connect() and the driver subclasses of PHP 8.4+ (Pdo\Sqlite) with PDO::ATTR_PERSISTENT are held per coroutine like new PDO
--EXTENSIONS--
pdo
pdo_sqlite
--FILE--
<?php
require __DIR__ . '/persist.inc';

$file = tempnam(sys_get_temp_dir(), 'persist-sqlite');
register_shutdown_function(fn() => @unlink($file));
$id = function (PDO $p) {
    $p->exec('CREATE TEMP TABLE IF NOT EXISTS me (id TEXT)');
    $v = $p->query('SELECT id FROM me')->fetchColumn();
    if ($v === false) {
        $v = bin2hex(random_bytes(8));
        $p->exec("INSERT INTO me VALUES ('$v')");
    }
    return $v;
};
echo "PDO::connect():\n";
persist_rules(fn() => PDO::connect("sqlite:$file", null, null, [PDO::ATTR_PERSISTENT => true]), $id, 3);
echo "new Pdo\\Sqlite:\n";
persist_rules(fn() => new Pdo\Sqlite("sqlite:$file", null, null, [PDO::ATTR_PERSISTENT => 'other']), $id, 3);
?>
--EXPECT--
PDO::connect():
3 coroutines at once: 3 connections
each kept its own: true
asked twice in one coroutine: the same connection
a later coroutine reuses a kept one: true
held by a live coroutine: another one gets a different connection: true
its object freed: the next coroutine gets it: true
new Pdo\Sqlite:
3 coroutines at once: 3 connections
each kept its own: true
asked twice in one coroutine: the same connection
a later coroutine reuses a kept one: true
held by a live coroutine: another one gets a different connection: true
its object freed: the next coroutine gets it: true
