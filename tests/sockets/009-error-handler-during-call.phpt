--TEST--
ext/sockets: a user error handler that waits, called for a warning from inside PHP's own socket call, blocks in place
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$ticks = 0;
$ticker = spawn(function () use (&$ticks) {
    for ($i = 0; $i < 200; $i++) {
        delay(1);
        $ticks++;
    }
});
$calls = [];
set_error_handler(function ($no, $msg) use (&$calls, &$ticks) {
    // Raised inside PHP's socket_accept() while the socket is switched to non-blocking for the
    // call: nothing else may run until the call is over.
    $before = $ticks;
    usleep(20000);
    $calls[] = preg_replace('/\[\d+\]: .*/', '[N]', $msg) . ' (others ran: ' . var_export($ticks !== $before, true) . ')';
    return true;
});
await(spawn(function () {
    // accept() on a socket that is not listening fails at once with a warning.
    $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_bind($s, '127.0.0.1', 0);
    var_dump(socket_accept($s));
    // After the call, the socket is blocking again and the handler may wait normally.
    $flags = socket_get_option($s, SOL_SOCKET, SO_TYPE);
    var_dump($flags === SOCK_STREAM);
}));
$before = $ticks;
usleep(20000); // a plain wait in a coroutine context lets the ticker run
echo implode("\n", $calls), "\n";
var_dump($ticks !== $before);
$ticker->cancel();
?>
--EXPECT--
bool(false)
bool(true)
socket_accept(): unable to accept incoming connection [N] (others ran: false)
bool(true)
