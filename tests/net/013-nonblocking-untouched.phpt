--TEST--
Net: streams made non-blocking by the user behave as PHP's own inside coroutines (no waiting), and wait again once blocking
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, suspend};

await(spawn(function () {
    [$srv, $addr] = net_listen();
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    $s = stream_socket_accept($srv, 5);

    stream_set_blocking($c, false);
    echo 'blocked: ', var_export(stream_get_meta_data($c)['blocked'], true), "\n";
    $t = hrtime(true);
    echo 'read with no data: ', var_export(fread($c, 10), true), ', at once: ', var_export(ms_since($t) < 50, true), "\n";

    // Writing more than the buffers hold: a short count at once, never a wait.
    $big = str_repeat('x', 32 << 20);
    $t = hrtime(true);
    $n = fwrite($c, $big);
    echo 'short write: ', var_export($n > 0 && $n < strlen($big), true), ', at once: ', var_export(ms_since($t) < 1000 * slow_factor(), true), "\n";
    // The kernel may still grow its buffers (TCP autotuning, quickly seen under valgrind), so
    // later writes may take a little more; once they are full a write takes 0 bytes, at once.
    $zero = false;
    for ($i = 0; $i < 100 && !$zero; $i++) {
        $zero = fwrite($c, $big) === 0;
    }
    echo 'then a write of 0 bytes: ', var_export($zero, true), "\n";

    // Blocking again: a read suspends until another coroutine writes.
    [$srv2, $addr2] = net_listen();
    $d = stream_socket_client("tcp://$addr2", $errno, $errstr, 5);
    $p = stream_socket_accept($srv2, 5);
    stream_set_blocking($d, false);
    stream_set_blocking($d, true);
    $reader = spawn(fn() => fgets($d));
    suspend();
    fwrite($p, "after blocking again\n");
    echo await($reader);

    // An asynchronous connect returns at once; stream_select() tells when it is done.
    $a = stream_socket_client("tcp://$addr2", $errno, $errstr, 5, STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT);
    $r = $e = null;
    $w = [$a];
    echo 'async connect writable: ', stream_select($r, $w, $e, 5), "\n";
}));
?>
--EXPECT--
blocked: false
read with no data: '', at once: true
short write: true, at once: true
then a write of 0 bytes: true
after blocking again
async connect writable: 1
