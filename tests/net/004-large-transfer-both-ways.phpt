--TEST--
Net: several MB each way at once over tcp and unix sockets, through partial reads and writes, hash-checked
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await};

// Both ends send 6 MB while reading the other's 6 MB: neither fits in the kernel buffers, so each
// side's writer blocks until its reader (another coroutine) drains the peer's data.
function duplex($s, string $out): array
{
    $writer = spawn(function () use ($s, $out) {
        $n = net_write_all($s, $out);
        stream_socket_shutdown($s, STREAM_SHUT_WR);
        return $n;
    });
    $reader = spawn(function () use ($s) {
        $buf = '';
        $reads = 0;
        while (($d = fread($s, 100000)) !== false && $d !== '') {
            $buf .= $d;
            $reads++;
        }
        return [$buf, $reads];
    });
    $written = await($writer);
    [$in, $reads] = await($reader);
    return [$written, $in, $reads];
}

foreach (['tcp', 'unix'] as $scheme) {
    if ($scheme === 'unix') {
        $path = sys_get_temp_dir() . '/net-004-' . getmypid() . '.sock';
        @unlink($path);
        $srv = stream_socket_server("unix://$path", $errno, $errstr);
        $target = "unix://$path";
    } else {
        [$srv, $addr] = net_listen();
        $target = "tcp://$addr";
    }
    $a = random_bytes(6 << 20);
    $b = random_bytes(6 << 20);
    $server = spawn(function () use ($srv, $b) {
        $c = stream_socket_accept($srv, 10);
        return duplex($c, $b);
    });
    $c = stream_socket_client($target, $errno, $errstr, 10);
    [$sent, $got, $reads] = duplex($c, $a);
    [$srvSent, $srvGot, $srvReads] = await($server);
    echo "$scheme: client sent $sent, server sent $srvSent\n";
    echo "$scheme: client got the server's data: ", var_export(hash('sha256', $got) === hash('sha256', $b), true), "\n";
    echo "$scheme: server got the client's data: ", var_export(hash('sha256', $srvGot) === hash('sha256', $a), true), "\n";
    echo "$scheme: data came in many partial reads: ", var_export($reads > 60 && $srvReads > 60, true), "\n";
    fclose($c);
    fclose($srv);
    if ($scheme === 'unix') {
        unlink($path);
    }
}
?>
--EXPECT--
tcp: client sent 6291456, server sent 6291456
tcp: client got the server's data: true
tcp: server got the client's data: true
tcp: data came in many partial reads: true
unix: client sent 6291456, server sent 6291456
unix: client got the server's data: true
unix: server got the client's data: true
unix: data came in many partial reads: true
