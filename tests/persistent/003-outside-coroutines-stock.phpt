--TEST--
Persistent: outside coroutines pfsockopen() is stock PHP (asked twice, one stream); a coroutine started afterwards finds that idle connection under its key and reuses it; after the coroutine ended, the main flow finds it again
--FILE--
<?php
require __DIR__ . '/persist.inc';
use function Async\{spawn, await};

[$proc, $port] = persist_server_process(); // no coroutine of ours runs before the spawn below

$s1 = pfsockopen('127.0.0.1', $port, $errno, $errstr, 5);
$s2 = pfsockopen('127.0.0.1', $port, $errno, $errstr, 5);
$id = persist_conn(persist_ask($s1, 'one'));
echo 'outside: asked twice, one stream: ', var_export((int) $s1 === (int) $s2 && $id > 0, true), "\n";
echo 'outside: answered on it: ', var_export(persist_ask($s2, 'two') === "conn$id two", true), "\n";
unset($s1, $s2);

$inside = await(spawn(function () use ($port) {
    $s = pfsockopen('127.0.0.1', $port, $errno, $errstr, 5);
    return persist_conn(persist_ask($s, 'three'));
}));
echo 'a coroutine reuses the idle connection: ', var_export($inside === $id, true), "\n";

$s3 = pfsockopen('127.0.0.1', $port, $errno, $errstr, 5);
echo 'back in the main flow: the same connection: ', var_export(persist_ask($s3, 'four') === "conn$id four", true), "\n";
?>
--EXPECT--
outside: asked twice, one stream: true
outside: answered on it: true
a coroutine reuses the idle connection: true
back in the main flow: the same connection: true
