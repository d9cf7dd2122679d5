--TEST--
ext/sockets: non-blocking sockets, MSG_DONTWAIT and calls outside coroutines keep PHP's own behaviour
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $p);
// Before anything is spawned: PHP's own blocking calls (data is there, so they return at once).
socket_write($p[1], 'abc');
var_dump(socket_read($p[0], 10));

await(spawn(function () use ($p) {
    // MSG_DONTWAIT on a blocking socket: no waiting, EAGAIN without a warning.
    var_dump(socket_recv($p[0], $buf, 10, MSG_DONTWAIT), $buf, socket_last_error($p[0]) === SOCKET_EAGAIN);
    socket_clear_error($p[0]);
    socket_clear_error();
    // A non-blocking socket: EAGAIN at once.
    socket_set_nonblock($p[0]);
    var_dump(socket_read($p[0], 10), socket_last_error($p[0]) === SOCKET_EAGAIN);
    var_dump(socket_accept($p[0]) === false);
    socket_set_block($p[0]);
    socket_write($p[1], 'def');
    var_dump(socket_read($p[0], 10));
}));
?>
--EXPECTF--
string(3) "abc"
bool(false)
NULL
bool(true)
bool(false)
bool(true)

Warning: socket_accept(): unable to accept incoming connection [%d]: %s in %s on line %d
bool(true)
string(3) "def"
