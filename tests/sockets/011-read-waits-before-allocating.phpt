--TEST--
ext/sockets: socket_read() (both modes) and socket_recv() with a large length wait for data before they allocate it: 200 idle readers of 64 KiB grow memory by far less than 200 x 64 KiB; data, SO_RCVTIMEO and cancellation as before
--EXTENSIONS--
sockets
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_get_usage() needs ZendMM');
?>
--FILE--
<?php
use function Async\{spawn, await, await_all, suspend};

const N = 200;
const LEN = 65536;

$reads = [
    'socket_read' => fn($s) => socket_read($s, LEN),
    'socket_read PHP_NORMAL_READ' => fn($s) => socket_read($s, LEN, PHP_NORMAL_READ),
    'socket_recv' => function ($s) {
        $n = socket_recv($s, $buf, LEN, 0);
        return $n === false ? false : $buf;
    },
    'socket_recv MSG_WAITALL' => function ($s) {
        $n = socket_recv($s, $buf, 8, MSG_WAITALL); // a small length: allocated at once, as before
        return $n === false ? false : $buf;
    },
];

function pair(): array
{
    socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
    return $pair;
}

await(spawn(function () use ($reads) {
    foreach ($reads as $name => $read) {
        $pairs = [];
        for ($i = 0; $i < N; $i++) {
            $pairs[$i] = pair();
        }
        gc_collect_cycles();
        $before = memory_get_usage();
        $readers = [];
        foreach ($pairs as $i => [$a, $b]) {
            $readers[$i] = spawn(fn() => $read($a));
        }
        suspend();
        suspend();
        $per = (memory_get_usage() - $before) / N;
        echo "$name: ", $per < 16384 ? 'each idle reader < 16 KiB' : "each idle reader $per bytes", "\n";
        foreach ($pairs as $i => [$a, $b]) {
            socket_write($b, sprintf("row%04d\n", $i));
        }
        $ok = 0;
        foreach (await_all($readers)[0] as $i => $r) {
            $ok += $r === sprintf("row%04d\n", $i) ? 1 : 0;
        }
        echo "$name: $ok of ", N, " got their data\n";

        // Cancellation ends the wait; the socket stays usable.
        [$a, $b] = pair();
        $reader = spawn(fn() => $read($a));
        suspend();
        $reader->cancel();
        try {
            await($reader);
        } catch (Async\AsyncCancellation $e) {
            echo "$name: cancelled; ";
        }
        socket_write($b, "after-1\n");
        echo 'then ', json_encode($read($a)), "\n";
    }

    // SO_RCVTIMEO still ends a binary read with EAGAIN (false, no warning).
    [$a, $b] = pair();
    socket_set_option($a, SOL_SOCKET, SO_RCVTIMEO, ['sec' => 0, 'usec' => 200000]);
    $t = hrtime(true);
    $r = socket_read($a, LEN);
    $ms = (hrtime(true) - $t) / 1e6;
    echo 'SO_RCVTIMEO: ', var_export($r, true), ', ', socket_last_error($a) === SOCKET_EAGAIN ? 'EAGAIN' : socket_last_error($a),
        ', ', $ms >= 199 && $ms < 2000 ? 'after the timeout' : "after $ms ms", "\n";
    $t = hrtime(true);
    $n = socket_recv($a, $buf, LEN, 0);
    $ms = (hrtime(true) - $t) / 1e6;
    echo 'SO_RCVTIMEO recv: ', var_export($n, true), ' ', var_export($buf, true), ', ',
        $ms >= 199 && $ms < 2000 ? 'after the timeout' : "after $ms ms", "\n";
}));
?>
--EXPECT--
socket_read: each idle reader < 16 KiB
socket_read: 200 of 200 got their data
socket_read: cancelled; then "after-1\n"
socket_read PHP_NORMAL_READ: each idle reader < 16 KiB
socket_read PHP_NORMAL_READ: 200 of 200 got their data
socket_read PHP_NORMAL_READ: cancelled; then "after-1\n"
socket_recv: each idle reader < 16 KiB
socket_recv: 200 of 200 got their data
socket_recv: cancelled; then "after-1\n"
socket_recv MSG_WAITALL: each idle reader < 16 KiB
socket_recv MSG_WAITALL: 200 of 200 got their data
socket_recv MSG_WAITALL: cancelled; then "after-1\n"
SO_RCVTIMEO: false, EAGAIN, after the timeout
SO_RCVTIMEO recv: false NULL, after the timeout
