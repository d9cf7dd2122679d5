--TEST--
Chaos proxy: writes split into 1-byte (and N-byte) pieces deliver every byte, in order
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
use function Async\{spawn, await};

await(spawn(function () {
    $echo = ChaosEcho::start();
    $proxy = ChaosProxy::start($echo->addr, 'down:split=1');

    // 64 bytes come back one send() at a time: the client's reads see them however the kernel
    // gathers them, and in order.
    $data = implode('', range('A', 'Z')) . implode('', range('a', 'z')) . '0123456789;.';
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, $data);
    [$got, $how] = chaos_read($c, strlen($data));
    echo 'split=1: ', $got === $data ? 'all 64 bytes in order' : "got " . var_export($got, true), "\n";
    fclose($c);
    $proxy->waitEvent('/^conn 1 closed /');

    // Byte by byte with a 2 ms gap both ways, 30 bytes: each send() a separate piece, at least
    // 29 gaps between them (the two directions overlap: the echo of byte 1 goes down while byte 2
    // waits to go up).
    $proxy->fault('split=1 gap=2');
    $t = hrtime(true);
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, str_repeat('xyz', 10));
    [$got] = chaos_read($c, 30);
    $ms = ms_since($t);
    echo 'split=1 gap=2: ', $got === str_repeat('xyz', 10) ? 'all 30 bytes in order' : 'garbled', ', ',
        $ms >= 29 * 2 - 1 ? 'at least 58 ms' : "only $ms ms", "\n";
    fclose($c);
    $proxy->waitEvent('/^conn 2 closed /');

    // 100000 bytes in 1000-byte pieces, a writer and a reader coroutine on one socket.
    $proxy->fault('split=1000');
    $big = random_bytes(100000);
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    $writer = spawn(function () use ($c, $big) {
        for ($off = 0; $off < strlen($big); $off += $n) {
            $n = fwrite($c, substr($big, $off, 8192));
        }
    });
    [$got] = chaos_read($c, strlen($big));
    await($writer);
    echo 'split=1000: ', $got === $big ? '100000 bytes intact' : 'corrupted', "\n";
    fclose($c);
    $proxy->waitEvent('/^conn 3 closed /');

    // The proxy's count of send() calls shows the pieces.
    foreach ($proxy->stats() as $id => $s) {
        echo "conn $id: up {$s['up_sent']} bytes in {$s['up_writes']} writes, down {$s['down_sent']} bytes in {$s['down_writes']} writes\n";
    }
}));
?>
--EXPECTF--
split=1: all 64 bytes in order
split=1 gap=2: all 30 bytes in order, at least 58 ms
split=1000: 100000 bytes intact
conn 1: up 64 bytes in %d writes, down 64 bytes in 64 writes
conn 2: up 30 bytes in 30 writes, down 30 bytes in 30 writes
conn 3: up 100000 bytes in %d writes, down 100000 bytes in %d writes
