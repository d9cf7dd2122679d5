--TEST--
Net: stream_socket_server() and stream_socket_client() inside a coroutine let the other coroutines run once (as the resolution of an address does, also for an IP literal), as on TrueAsync; a cancellation met there fails the call (issue #39 item 9)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, suspend};

await(spawn(function () {
    $log = [];
    spawn(function () use (&$log) { $log[] = 'another coroutine ran'; });
    $log[] = 'before stream_socket_server()';
    $srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
    $log[] = 'after stream_socket_server()';
    $addr = stream_socket_get_name($srv, false);

    spawn(function () use (&$log) { $log[] = 'another coroutine ran'; });
    $log[] = 'before stream_socket_client()';
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    $log[] = 'after stream_socket_client(): ' . ($c !== false ? 'connected' : "failed: $errstr");

    spawn(function () use (&$log) { $log[] = 'another coroutine ran'; });
    $log[] = 'before fsockopen()';
    $f = fsockopen('127.0.0.1', (int) substr(strrchr($addr, ':'), 1));
    $log[] = 'after fsockopen(): ' . ($f !== false ? 'connected' : 'failed');
    echo implode("\n", $log), "\n";
}));

// Cancelled at that turn: the connect fails with the cancellation, as a cancelled connect does.
$srv = stream_socket_server('tcp://127.0.0.1:0');
$addr = stream_socket_get_name($srv, false);
$co = spawn(function () use ($addr) {
    return @stream_socket_client("tcp://$addr", $errno, $errstr, 5);
});
$canceller = spawn(function () use (&$co) { $co->cancel(); });
suspend(); // $co starts and yields inside its connect; the canceller runs
try {
    var_dump(await($co));
} catch (Async\AsyncCancellation $e) {
    echo 'cancelled in the connect: ', $e->getMessage(), "\n";
}
?>
--EXPECT--
before stream_socket_server()
another coroutine ran
after stream_socket_server()
before stream_socket_client()
another coroutine ran
after stream_socket_client(): connected
before fsockopen()
another coroutine ran
after fsockopen(): connected
cancelled in the connect: Coroutine cancelled
