--TEST--
Net: closing a socket other coroutines wait on (read, write, accept, stream_select) wakes them cleanly; the descriptor number is reused safely
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, suspend};

[$srv, $addr] = net_listen();

// A reader waits for data that never comes; another coroutine closes the stream.
$c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
$peer = stream_socket_accept($srv, 5);
$reader = spawn(function () use ($c) {
    $r = fread($c, 100);
    return 'reader got ' . var_export($r, true);
});
suspend(); // the reader is now waiting
$fd = (int) $c;
fclose($c);
echo await($reader), "\n";

// A writer blocked on full buffers (the peer never reads); the stream is closed under it.
$c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
$peer2 = stream_socket_accept($srv, 5);
$writer = spawn(function () use ($c) {
    $n = @fwrite($c, str_repeat('x', 32 << 20));
    return 'writer stopped early: ' . var_export($n === false || $n < (32 << 20), true);
});
suspend();
fclose($c);
echo await($writer), "\n";

// stream_select() on a stream that gets closed: it wakes, and PHP's own stream_select() then
// rejects the closed resource as it always does (a TypeError, then "No stream arrays").
$c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
$peer3 = stream_socket_accept($srv, 5);
$selector = spawn(function () use ($c) {
    $r = [$c];
    $w = $e = null;
    try {
        return 'select returned ' . var_export(stream_select($r, $w, $e, 10), true);
    } catch (Error $ex) {
        return get_class($ex) . ': ' . $ex->getMessage() . ' (previous ' . get_class($ex->getPrevious()) . ': '
            . $ex->getPrevious()->getMessage() . ')';
    }
});
suspend();
fclose($c);
echo await($selector), "\n";

// An accept waiting on a listener that gets closed.
[$srv2, $addr2] = net_listen();
$acceptor = spawn(function () use ($srv2) {
    $r = stream_socket_accept($srv2, 10);
    return 'accept returned ' . var_export($r, true);
});
suspend();
fclose($srv2);
echo await($acceptor), "\n";

// New sockets reuse the descriptor numbers; waiting on them works (no stale poll).
$pairs = 0;
for ($i = 0; $i < 5; $i++) {
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    $p = stream_socket_accept($srv, 5);
    $echo = spawn(function () use ($p) {
        fwrite($p, strrev(trim(fgets($p))) . "\n");
    });
    $got = spawn(fn() => fgets($c));
    suspend();
    fwrite($c, "olleh\n");
    if (await($got) === "hello\n") {
        $pairs++;
    }
    await($echo);
    fclose($c);
    fclose($p);
}
echo "round trips on reused descriptors: $pairs\n";
?>
--EXPECTF--
reader got ''
writer stopped early: true
ValueError: No stream arrays were passed (previous TypeError: stream_select(): supplied resource is not a valid stream resource)

Warning: stream_socket_accept(): Accept failed: Bad file descriptor in %s on line %d
accept returned false
round trips on reused descriptors: 5
