--TEST--
Chaos proxy: close_after=N gives exactly N bytes, then an orderly EOF
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
use function Async\{spawn, await};

await(spawn(function () {
    $echo = ChaosEcho::start();
    $proxy = ChaosProxy::start($echo->addr, 'down:close_after=6');

    // Two clients at once, each in its coroutine: each gets its first 6 bytes, then EOF ('').
    $clients = [];
    foreach (['first client', 'second client'] as $text) {
        $clients[] = spawn(function () use ($proxy, $text) {
            $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
            fwrite($c, $text);
            [$got, $how] = chaos_read($c);
            fclose($c);
            return "'$got', then $how";
        });
    }
    foreach ($clients as $i => $client) {
        echo 'client ', $i + 1, ': ', await($client), "\n";
    }

    // Toward the upstream: it receives exactly 3 bytes and EOF; the client gets EOF at once
    // (the close comes before any echo of them).
    $proxy->fault('up:close_after=3');
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, 'abcdef');
    [$got, $how] = chaos_read($c);
    echo "up:close_after=3: client got '$got', then $how\n";
    echo '  upstream: ', $echo->waitEvent('/^closed 3 /'), "\n";
    echo '  proxy: ', $proxy->waitEvent('/^conn 3 closed /'), "\n";
    fclose($c);
}));
?>
--EXPECT--
client 1: 'first ', then eof
client 2: 'second', then eof
up:close_after=3: client got '', then eof
  upstream: closed 3 received=3
  proxy: conn 3 closed why="up close_after=3"
