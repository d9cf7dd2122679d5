--TEST--
Chaos proxy: half_close_after=N gives the client EOF after N bytes while it can still send
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
use function Async\{spawn, await};

await(spawn(function () {
    $echo = ChaosEcho::start();
    $proxy = ChaosProxy::start($echo->addr, 'down:half_close_after=4');

    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, 'abcdefgh');
    [$got, $how] = chaos_read($c);
    echo "client got '$got', then $how\n";
    echo 'proxy: ', $proxy->waitEvent('/^conn 1 half-closed /'), "\n";

    // The other direction is open: what the client sends now reaches the upstream (whose
    // echo the proxy drops), and so does its EOF.
    var_dump(fwrite($c, 'still sending'));
    fclose($c);
    echo 'upstream: ', $echo->waitEvent('/^closed 1 /'), "\n";
    echo 'proxy: ', $proxy->waitEvent('/^conn 1 closed /'), "\n";
    $s = $proxy->stats()[1];
    echo "up_sent={$s['up_sent']} down_read={$s['down_read']} down_sent={$s['down_sent']}\n";
}));
?>
--EXPECT--
client got 'abcd', then eof
proxy: conn 1 half-closed dir=down after=4
int(13)
upstream: closed 1 received=21
proxy: conn 1 closed why="eof both ways"
up_sent=21 down_read=21 down_sent=4
