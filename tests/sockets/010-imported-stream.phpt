--TEST--
ext/sockets: a Socket imported from a blocking socket stream waits like the stream (its descriptor is non-blocking under the hood)
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$srv = stream_socket_server('tcp://127.0.0.1:0');
$addr = stream_socket_get_name($srv, false);
echo implode("\n", await(spawn(function () use ($srv, $addr) {
    $out = [];
    $client = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    $peer = stream_socket_accept($srv, 5);
    $sock = socket_import_stream($client);
    spawn(function () use ($peer) {
        delay(20);
        fwrite($peer, "late line\n");
    });
    // Blocking, as the stream is: waits for the peer instead of failing with EAGAIN.
    $out[] = 'read: ' . json_encode(socket_read($sock, 100, PHP_NORMAL_READ));
    $out[] = 'write: ' . socket_write($sock, "reply\n");
    $out[] = 'peer got: ' . json_encode(fgets($peer));
    // The stream itself still works and still looks blocking.
    fwrite($peer, "via stream\n");
    $out[] = 'fgets: ' . json_encode(fgets($client)) . ', blocked: ' . json_encode(stream_get_meta_data($client)['blocked']);
    // Made non-blocking through the Socket: the stream follows, and a read returns at once.
    socket_set_nonblock($sock);
    $out[] = 'non-blocking read: ' . json_encode(socket_read($sock, 100)) . ' ' . (socket_last_error($sock) === SOCKET_EAGAIN ? 'EAGAIN' : socket_last_error($sock));
    $out[] = 'stream blocked: ' . json_encode(stream_get_meta_data($client)['blocked']);
    return $out;
}))), "\n";
?>
--EXPECT--
read: "late line\n"
write: 6
peer got: "reply\n"
fgets: "via stream\n", blocked: true
non-blocking read: false EAGAIN
stream blocked: false
