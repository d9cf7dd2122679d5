--TEST--
Persistent: stream_socket_client() with STREAM_CLIENT_PERSISTENT in three coroutines at once gives three connections; a coroutine asking twice gets the one it holds (as stock PHP); fclose() closes it for good (the next open gets another kept one)
--FILE--
<?php
require __DIR__ . '/persist.inc';
use Async\{Channel, Future, FutureState};
use function Async\{spawn, await, await_all};

[$scope, $port] = persist_server();
$addr = "tcp://127.0.0.1:$port";
$flags = STREAM_CLIENT_CONNECT | STREAM_CLIENT_PERSISTENT;

$opened = new Channel(3);
$gate = new FutureState();
$go = new Future($gate);
$cs = [];
for ($i = 1; $i <= 3; $i++) {
    $cs[] = spawn(function () use ($i, $addr, $flags, $opened, $go) {
        $s = stream_socket_client($addr, $errno, $errstr, 5, $flags);
        $a = persist_ask($s, "a$i");
        $opened->send($i);
        $go->await();
        // asked again by the same coroutine: the connection it holds, the same resource
        $again = stream_socket_client($addr, $errno, $errstr, 5, $flags);
        $b = persist_ask($again, "b$i");
        $id = persist_conn($a);
        return [$id, $a === "conn$id a$i" && $b === "conn$id b$i", (int) $again === (int) $s];
    });
}
for ($k = 0; $k < 3; $k++) {
    $opened->recv();
}
$gate->complete(true);
[$results] = await_all($cs);
echo count(array_unique(array_column($results, 0))), " connections for 3 coroutines\n";
echo 'answers right: ', var_export(!in_array(false, array_column($results, 1), true), true), "\n";
echo 'asked twice, the same stream: ', var_export(!in_array(false, array_column($results, 2), true), true), "\n";
$ids = array_column($results, 0);

// fclose() of a held persistent stream closes it (stock PHP): the next open takes another kept one.
$closed = await(spawn(function () use ($addr, $flags) {
    $s = stream_socket_client($addr, $errno, $errstr, 5, $flags);
    $id = persist_conn(persist_ask($s, 'to close'));
    fclose($s);
    // the next open, in the same coroutine: one of the two kept aside
    $s2 = stream_socket_client($addr, $errno, $errstr, 5, $flags);
    return [$id, persist_conn(persist_ask($s2, 'after close'))];
}));
echo 'a kept one was taken: ', var_export(in_array($closed[0], $ids, true), true), "\n";
echo 'after fclose(), another kept one: ', var_export($closed[1] !== $closed[0] && in_array($closed[1], $ids, true), true), "\n";

// Three at once again: the closed one is gone, so one of them is new.
$cs = [];
$opened = new Channel(3);
$gate = new FutureState();
$go = new Future($gate);
for ($i = 1; $i <= 3; $i++) {
    $cs[] = spawn(function () use ($addr, $flags, $opened, $go) {
        $s = stream_socket_client($addr, $errno, $errstr, 5, $flags);
        $id = persist_conn(persist_ask($s, 'again'));
        $opened->send($id);
        $go->await();
        return $id;
    });
}
for ($k = 0; $k < 3; $k++) {
    $opened->recv();
}
$gate->complete(true);
[$again] = await_all($cs);
sort($again);
$expected = array_values(array_diff($ids, [$closed[0]]));
sort($expected);
echo 'then three at once: the two kept and one new: ', var_export(count(array_unique($again)) === 3
    && array_slice($again, 0, 2) === $expected && $again[2] > max($ids), true), "\n";

$scope->cancel();
?>
--EXPECT--
3 connections for 3 coroutines
answers right: true
asked twice, the same stream: true
a kept one was taken: true
after fclose(), another kept one: true
then three at once: the two kept and one new: true
