--TEST--
Persistent: mysqli_init() + real_connect() with a "p:" host (Doctrine DBAL's and WordPress's way) in several coroutines at once: one connection per coroutine while held; a link freed or closed by one coroutine is the next one's
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
$open = function () use ($port) {
    $m = mysqli_init();
    $m->options(MYSQLI_OPT_CONNECT_TIMEOUT, 5);
    $m->real_connect('p:127.0.0.1', 'root', '', '', $port);
    return $m;
};
$id = fn(mysqli $m) => (int) $m->query('SELECT CONNECTION_ID()')->fetch_row()[0];
persist_rules($open, $id, 4);

$x = await(spawn(function () use ($open, $id) {
    $m = $open();
    $x = $id($m);
    $m->close();
    return $x;
}));
echo 'closed by one coroutine, the next one gets it: ', var_export(await(spawn(fn() => $id($open()))) === $x, true), "\n";

// Without "p:": a connection of its own per object, never kept.
$plain = function () use ($port) {
    $m = mysqli_init();
    $m->real_connect('127.0.0.1', 'root', '', '', $port);
    return $m;
};
$a = await(spawn(fn() => $id($plain())));
$b = await(spawn(fn() => $id($plain())));
echo 'without p:, a new connection each time: ', var_export($a !== $b && $a > 0 && $b > 0, true), "\n";
?>
--EXPECT--
4 coroutines at once: 4 connections
each kept its own: true
asked twice in one coroutine: another connection
a later coroutine reuses a kept one: true
held by a live coroutine: another one gets a different connection: true
its object freed: the next coroutine gets it: true
closed by one coroutine, the next one gets it: true
without p:, a new connection each time: true
