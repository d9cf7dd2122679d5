--TEST--
ext/sockets: a coroutine waiting in socket_accept/socket_read can be cancelled; closing a socket another coroutine waits on wakes it
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$server = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
socket_bind($server, '127.0.0.1', 0);
socket_listen($server);
$acceptor = spawn(function () use ($server) {
    try {
        socket_accept($server);
    } catch (Async\AsyncCancellation $e) {
        return 'cancelled: ' . $e->getMessage();
    }
});
$canceller = spawn(function () use ($acceptor) {
    delay(10);
    $acceptor->cancel(new Async\AsyncCancellation('enough'));
});
echo await($acceptor), "\n";
await($canceller);

// A read interrupted by the socket's own closing ends with PHP's error for a closed descriptor.
socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $p);
$reader = spawn(function () use ($p) {
    $r = @socket_read($p[0], 10);
    return [$r, socket_last_error()];
});
$closer = spawn(function () use ($p) {
    delay(10);
    socket_close($p[0]);
});
[$r, $err] = await($reader);
var_dump($r, $err === SOCKET_EBADF);
await($closer);

// The descriptor number is reused at once by a new socket, which works normally.
socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $q);
echo await(spawn(function () use ($q) {
    socket_write($q[1], 'fresh');
    return socket_read($q[0], 10);
})), "\n";
?>
--EXPECT--
cancelled: enough
bool(false)
bool(true)
fresh
