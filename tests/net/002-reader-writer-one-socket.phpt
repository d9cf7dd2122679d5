--TEST--
Net: a reader and a writer coroutine on one socket at once (two waiters, one poll), 8 MB through an echo
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await};

// Small kernel buffers on both ends, so that the writer surely blocks (loopback autotuning could
// otherwise swallow much of the 8 MB).
function small_buffers($stream): void
{
    $sock = socket_import_stream($stream);
    socket_set_option($sock, SOL_SOCKET, SO_SNDBUF, 65536);
    socket_set_option($sock, SOL_SOCKET, SO_RCVBUF, 65536);
}

// The echo handler reads, then writes back. With 8 MB in flight and nobody reading the echo, the
// kernel buffers fill and every party blocks: only a reader waiting on the same socket as the
// blocked writer lets the transfer finish.
[$srv, $addr] = net_listen();
$server = spawn(function () use ($srv) {
    $c = stream_socket_accept($srv, 10);
    small_buffers($c);
    $echoed = 0;
    while (($d = fread($c, 65536)) !== false && $d !== '') {
        $echoed += net_write_all($c, $d);
    }
    fclose($c);
    return $echoed;
});

$data = random_bytes(8 << 20);
$s = stream_socket_client("tcp://$addr", $errno, $errstr, 10);
small_buffers($s);
$writerWaiting = false;
$readerSawWriterWaiting = false;
$writer = spawn(function () use ($s, $data, &$writerWaiting) {
    $done = 0;
    while ($done < strlen($data)) {
        $writerWaiting = true;
        $n = fwrite($s, substr($data, $done, 1 << 20));
        $writerWaiting = false;
        $done += $n;
    }
    stream_socket_shutdown($s, STREAM_SHUT_WR);
    return $done;
});
$reader = spawn(function () use ($s, &$writerWaiting, &$readerSawWriterWaiting) {
    $buf = '';
    while (($d = fread($s, 65536)) !== false && $d !== '') {
        $readerSawWriterWaiting = $readerSawWriterWaiting || $writerWaiting;
        $buf .= $d;
    }
    return $buf;
});
$written = await($writer);
$read = await($reader);
echo "written: $written\n";
echo "echoed: ", await($server), "\n";
echo "same data: ", var_export(hash('sha256', $read) === hash('sha256', $data), true), "\n";
echo "reader ran while the writer was blocked: ", var_export($readerSawWriterWaiting, true), "\n";
?>
--EXPECT--
written: 8388608
echoed: 8388608
same data: true
reader ran while the writer was blocked: true
