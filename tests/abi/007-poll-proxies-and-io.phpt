--TEST--
ABI: poll proxies share one poll per descriptor (a reader and a writer at once), and the unified I/O handle completes read/write requests on sockets and pipes
--EXTENSIONS--
async_abi_test
--FILE--
<?php
use function Async\{spawn, await, suspend};

const READABLE = 1, WRITABLE = 2, IO_PIPE = 0, IO_TCP = 2;

// Two proxies on one descriptor: the writer's fires at once, the reader's when data comes.
[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$reader = spawn(fn() => async_abi_test_poll_wait($a, READABLE, 0));
$writer = spawn(fn() => async_abi_test_poll_wait($a, WRITABLE, 0));
suspend();
echo 'writer proxy: ', await($writer), "\n";
fwrite($b, 'x');
echo 'reader proxy: ', await($reader), "\n";
fread($a, 1);
echo 'timeout: ', async_abi_test_poll_wait($a, READABLE, 30), "\n";

// I/O requests on a socket: a pending read completes when the peer writes.
$read = spawn(fn() => async_abi_test_io_read($a, 100, IO_TCP));
suspend();
echo 'written: ', async_abi_test_io_write($b, 'hello over io', IO_TCP), "\n";
echo 'read: ', await($read), "\n";

// A write bigger than the socket buffers completes while a reader drains the other end.
$big = random_bytes(4 << 20);
$drain = spawn(function () use ($b, $big) {
    $got = '';
    while (strlen($got) < strlen($big)) {
        $got .= async_abi_test_io_read($b, 65536, IO_TCP);
    }
    return hash('sha256', $got) === hash('sha256', $big);
});
echo 'big write: ', async_abi_test_io_write($a, $big, IO_TCP), "\n";
echo 'big read intact: ', var_export(await($drain), true), "\n";

// EOF once the peer is closed.
fclose($b);
echo 'after close: ', var_export(async_abi_test_io_read($a, 10, IO_TCP), true), "\n";

// Pipes to and from a child process: cat echoes what it reads.
$proc = proc_open(['cat'], [['pipe', 'r'], ['pipe', 'w']], $pipes);
$echo = spawn(function () use ($pipes) {
    $got = '';
    while (strlen($got) < 70000) {
        $got .= async_abi_test_io_read($pipes[1], 65536, IO_PIPE);
    }
    return $got;
});
$data = str_repeat('0123456789', 7000);
echo 'pipe written: ', async_abi_test_io_write($pipes[0], $data, IO_PIPE), "\n";
echo 'pipe echoed intact: ', var_export(await($echo) === $data, true), "\n";
fclose($pipes[0]);
echo 'pipe eof: ', var_export(async_abi_test_io_read($pipes[1], 10, IO_PIPE), true), "\n";
fclose($pipes[1]);
proc_close($proc);
?>
--EXPECT--
writer proxy: 2
reader proxy: 1
timeout: 0
written: 13
read: hello over io
big write: 4194304
big read intact: true
after close: ''
pipe written: 70000
pipe echoed intact: true
pipe eof: ''
