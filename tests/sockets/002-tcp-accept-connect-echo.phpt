--TEST--
ext/sockets: an accept loop and 20 clients in coroutines of one process (socket_accept, socket_connect, echo)
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

$server = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
socket_bind($server, '127.0.0.1', 0);
socket_listen($server, 64);
socket_getsockname($server, $addr, $port);
$n = 20;

$acceptor = spawn(function () use ($server, $n) {
    $handlers = [];
    for ($i = 0; $i < $n; $i++) {
        $conn = socket_accept($server);
        $handlers[] = spawn(function () use ($conn) {
            $line = socket_read($conn, 1024, PHP_NORMAL_READ);
            socket_write($conn, 'echo ' . $line);
            socket_close($conn);
        });
    }
    foreach ($handlers as $h) {
        await($h);
    }
    return count($handlers);
});
$clients = [];
for ($i = 0; $i < $n; $i++) {
    $clients[$i] = spawn(function () use ($port, $i) {
        $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
        if (!socket_connect($s, '127.0.0.1', $port)) {
            return 'connect failed';
        }
        socket_write($s, "client $i\n");
        $reply = '';
        while (($chunk = socket_read($s, 1024)) !== '' && $chunk !== false) {
            $reply .= $chunk;
        }
        socket_close($s);
        return $reply;
    });
}
$ok = 0;
foreach ($clients as $i => $c) {
    $reply = await($c);
    if ($reply === "echo client $i\n") {
        $ok++;
    } else {
        echo "client $i: ", json_encode($reply), "\n";
    }
}
echo await($acceptor), " accepted, $ok echoed\n";
?>
--EXPECT--
20 accepted, 20 echoed
