--TEST--
Net: stream_socket_pair(), udp and udg sockets (recvfrom/sendto, fread on a connected datagram socket) suspend only the waiting coroutine
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, suspend};

$log = [];

// stream_socket_pair(): a reader waits on each end, the writes come later.
[$x, $y] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$rx = spawn(function () use ($x, &$log) {
    $log[] = 'x waits';
    $log[] = 'x got ' . trim(fgets($x));
    fwrite($x, "pong\n");
});
$ry = spawn(function () use ($y, &$log) {
    suspend();
    $log[] = 'y writes';
    fwrite($y, "ping\n");
    $log[] = 'y got ' . trim(fgets($y));
});
await($rx);
await($ry);
echo implode("\n", $log), "\n";
echo 'pair meta: blocked=', var_export(stream_get_meta_data($x)['blocked'], true), "\n";

// udp: a server waiting in stream_socket_recvfrom(), a client on a connected socket.
$server = stream_socket_server('udp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND);
$addr = stream_socket_get_name($server, false);
$udp = spawn(function () use ($server) {
    $replies = 0;
    while ($replies < 3) {
        $msg = stream_socket_recvfrom($server, 1500, 0, $peer);
        stream_socket_sendto($server, strtoupper($msg), 0, $peer);
        $replies++;
    }
    return $replies;
});
$client = stream_socket_client("udp://$addr", $errno, $errstr, 5);
$got = [];
foreach (['one', 'two', 'three'] as $word) {
    fwrite($client, $word);
    $got[] = fread($client, 1500);
}
echo 'udp: ', implode(' ', $got), ' (', await($udp), " replies)\n";

// udg: unix datagrams, the receiver waiting first.
$path = sys_get_temp_dir() . '/net-011-' . getmypid() . '.sock';
@unlink($path);
$dg = stream_socket_server("udg://$path", $errno, $errstr, STREAM_SERVER_BIND);
$recv = spawn(fn() => stream_socket_recvfrom($dg, 100));
suspend();
$sender = stream_socket_client("udg://$path", $errno, $errstr, 5);
fwrite($sender, 'datagram');
echo 'udg: ', await($recv), "\n";
fclose($dg);
unlink($path);
?>
--EXPECT--
x waits
y writes
x got ping
y got pong
pair meta: blocked=true
udp: ONE TWO THREE (3 replies)
udg: datagram
