--TEST--
ext/sockets: socket_recvfrom waits in its coroutine for a datagram that socket_sendto sends later
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$rx = socket_create(AF_INET, SOCK_DGRAM, SOL_UDP);
socket_bind($rx, '127.0.0.1', 0);
socket_getsockname($rx, $addr, $port);
$tx = socket_create(AF_INET, SOCK_DGRAM, SOL_UDP);
socket_bind($tx, '127.0.0.1', 0);
socket_getsockname($tx, $txaddr, $txport);

$log = [];
$receiver = spawn(function () use ($rx, &$log, $txport) {
    $got = [];
    for ($i = 0; $i < 3; $i++) {
        $log[] = "wait $i";
        $n = socket_recvfrom($rx, $buf, 100, 0, $from, $fromport);
        $got[] = [$n, $buf, $from, $fromport === $txport];
    }
    return $got;
});
$sender = spawn(function () use ($tx, $port, &$log) {
    for ($i = 0; $i < 3; $i++) {
        delay(10);
        $log[] = "send $i";
        socket_sendto($tx, "datagram $i", 10, 0, '127.0.0.1', $port);
    }
});
foreach (await($receiver) as $g) {
    echo json_encode($g), "\n";
}
await($sender);
echo implode(', ', $log), "\n";
?>
--EXPECT--
[10,"datagram 0","127.0.0.1",true]
[10,"datagram 1","127.0.0.1",true]
[10,"datagram 2","127.0.0.1",true]
wait 0, send 0, wait 1, send 1, wait 2, send 2
