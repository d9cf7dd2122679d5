--TEST--
Chaos proxy: a blackhole reads and never answers (the client's read times out); refuse resets at once
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
use function Async\{spawn, await};

await(spawn(function () {
    $echo = ChaosEcho::start();
    $proxy = ChaosProxy::start($echo->addr, 'blackhole');

    // The whole connection: the upstream is never even connected.
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    var_dump(fwrite($c, 'anyone there?'));
    stream_set_timeout($c, 0, 200000);
    $t = hrtime(true);
    [$got, $how] = chaos_read($c);
    echo "blackhole: got '$got', then $how", ms_since($t) >= 199 ? ' after at least 200 ms' : '', "\n";
    echo 'proxy: ', $proxy->waitEvent('/^conn 1 accepted /'), "\n";
    $s = $proxy->stats()[1];
    echo "  state={$s['state']} up_read={$s['up_read']} up_sent={$s['up_sent']}\n";
    fclose($c);

    // One direction: the upstream gets the bytes, its answer is dropped.
    $proxy->fault('down:blackhole');
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, 'hello');
    stream_set_timeout($c, 0, 200000);
    [$got, $how] = chaos_read($c);
    echo "down:blackhole: got '$got', then $how\n";
    fclose($c);
    echo 'upstream: ', $echo->waitEvent('/^closed 1 /'), "\n";
    $s = $proxy->stats()[2];
    echo "  up_sent={$s['up_sent']} down_read={$s['down_read']} down_sent={$s['down_sent']}\n";

    // refuse: a listening socket cannot refuse one client (the kernel completed the handshake
    // before accept()), so the proxy accepts and resets at once.
    $proxy->fault('refuse');
    echo 'refuse: ', chaos_connect_refused($proxy->addr), "\n";
    echo 'proxy: ', $proxy->waitEvent('/^conn 3 refused /'), "\n";
}));
?>
--EXPECTF--
int(13)
blackhole: got '', then timeout after at least 200 ms
proxy: conn 1 accepted client=127.0.0.1:%d fault="blackhole"
  state=blackhole up_read=13 up_sent=0
down:blackhole: got '', then timeout
upstream: closed 1 received=5
  up_sent=5 down_read=5 down_sent=0
refuse: reset
proxy: conn 3 refused why="refuse"
