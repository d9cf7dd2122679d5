--TEST--
Persistent: four coroutines calling pfsockopen() to one host at once get four connections (each holds its own until it ends) and only their own answers; once they ended, the connections are kept and handed out again
--FILE--
<?php
require __DIR__ . '/persist.inc';
use Async\{Channel, Future, FutureState};
use function Async\{spawn, await, await_all};

[$scope, $port] = persist_server();

/* $n coroutines, each: pfsockopen(), one request, then (all of them holding a connection at once)
 * a second request. Returns [conn id, both answers right] per coroutine. */
function together(int $port, int $n, string $tag): array
{
    $opened = new Channel($n);
    $gate = new FutureState();
    $go = new Future($gate);
    $cs = [];
    for ($i = 1; $i <= $n; $i++) {
        $cs[] = spawn(function () use ($i, $port, $opened, $go, $tag) {
            $s = pfsockopen('127.0.0.1', $port, $errno, $errstr, 5);
            stream_set_timeout($s, 5);
            $a = persist_ask($s, "$tag-a$i");
            $opened->send($i);
            $go->await();
            $b = persist_ask($s, "$tag-b$i");
            $id = persist_conn($a);
            return [$id, $a === "conn$id $tag-a$i" && $b === "conn$id $tag-b$i"];
        });
    }
    for ($k = 0; $k < $n; $k++) {
        $opened->recv();
    }
    $gate->complete(true);
    [$results, $errors] = await_all($cs);
    foreach ($errors as $e) {
        echo 'error: ', $e->getMessage(), "\n";
    }
    return $results;
}

$first = together($port, 4, 'x');
$ids = array_column($first, 0);
echo 'first round: ', count(array_unique($ids)), ' connections for 4 coroutines, answers right: ',
    var_export(!in_array(false, array_column($first, 1), true), true), "\n";

// One coroutine after they ended: one of the kept connections, not a new one.
$one = await(spawn(function () use ($port) {
    $s = pfsockopen('127.0.0.1', $port, $errno, $errstr, 5);
    return persist_conn(persist_ask($s, 'later'));
}));
echo 'a later coroutine reuses a kept connection: ', var_export(in_array($one, $ids, true), true), "\n";

// Four at once again: the same four connections (one under the key, three kept aside).
$second = together($port, 4, 'y');
$ids2 = array_column($second, 0);
sort($ids);
sort($ids2);
echo 'second round: the same connections: ', var_export($ids === $ids2, true), ', answers right: ',
    var_export(!in_array(false, array_column($second, 1), true), true), "\n";

$scope->cancel();
?>
--EXPECT--
first round: 4 connections for 4 coroutines, answers right: true
a later coroutine reuses a kept connection: true
second round: the same connections: true, answers right: true
