--TEST--
stream_socket_recvfrom() on a UDP socket honours stream_set_timeout() in a coroutine: false with timed_out set after the timeout, while others run; a datagram sent meanwhile is received with timed_out cleared
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, delay};

$u = stream_socket_server("udp://127.0.0.1:0", $errno, $errstr, STREAM_SERVER_BIND);
$addr = stream_socket_get_name($u, false);
stream_set_timeout($u, 0, 50000);

// 1. No datagram: false after the timeout (the old module waited for ever), others ran meanwhile.
$done = false;
$ticks = 0;
$ticker = spawn(function () use (&$done, &$ticks) { while (!$done) { delay(1); $ticks++; } });
$t0 = hrtime(true);
$r = await(spawn(function () use ($u, &$done) { $d = stream_socket_recvfrom($u, 100); $done = true; return $d; }));
var_dump($r, stream_get_meta_data($u)['timed_out'], (hrtime(true) - $t0) >= 50e6, $ticks > 0);
await($ticker);

// 2. A datagram sent while the receiver waits arrives, with the sender's address; timed_out is
//    cleared by the successful receive.
stream_set_timeout($u, 30);
$recv = spawn(function () use ($u) { $d = stream_socket_recvfrom($u, 100, 0, $from); return [$d, $from !== '']; });
$send = spawn(function () use ($addr) {
    $c = stream_socket_client("udp://$addr");
    fwrite($c, "ping");
    return $c;
});
var_dump(await($recv), stream_get_meta_data($u)['timed_out']);
fclose(await($send));

// 3. Outside coroutines, a datagram already queued is read as stock PHP reads it.
$c = stream_socket_client("udp://$addr");
fwrite($c, "pong");
var_dump(stream_socket_recvfrom($u, 100));
echo "done\n";
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  string(4) "ping"
  [1]=>
  bool(true)
}
bool(false)
string(4) "pong"
done
