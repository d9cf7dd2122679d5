--TEST--
ext/sockets: socket_read/socket_write/socket_recv/socket_send on a blocking pair suspend only the calling coroutine
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pair);
[$a, $b] = $pair;
$log = [];
$reader = spawn(function () use ($a, &$log) {
    $log[] = 'reader waits';
    $log[] = 'read: ' . socket_read($a, 100);
    // PHP_NORMAL_READ: up to the end of the line, however the bytes arrive.
    $log[] = 'line: ' . json_encode(socket_read($a, 100, PHP_NORMAL_READ));
    // MSG_WAITALL: the whole buffer, from several writes.
    $n = socket_recv($a, $buf, 10, MSG_WAITALL);
    $log[] = "recv: $n " . json_encode($buf);
    $n = socket_recv($a, $buf, 100, 0);
    $log[] = "recv: $n " . json_encode($buf);
});
$writer = spawn(function () use ($b, &$log) {
    $log[] = 'writer waits';
    delay(30);
    $log[] = 'write: ' . socket_write($b, 'hello');
    delay(10);
    socket_write($b, 'par');
    delay(10);
    socket_write($b, "tial\nxyz");
    delay(10);
    $log[] = 'send: ' . socket_send($b, '0123456', 7, 0);
    delay(10);
    socket_send($b, 'tail', 4, 0);
});
$ticks = 0;
$ticker = spawn(function () use (&$ticks, $reader) {
    while (!$reader->isCompleted()) {
        $ticks++;
        delay(5);
    }
});
await($reader);
await($writer);
await($ticker);
echo implode("\n", $log), "\n";
var_dump($ticks > 5, socket_last_error($a), socket_last_error());

// Outside a coroutine's reach (the same socket after the runtime is idle) still works as PHP's own.
socket_write($b, "again");
var_dump(socket_read($a, 100));
?>
--EXPECT--
reader waits
writer waits
write: 5
read: hello
line: "partial\n"
send: 7
recv: 10 "xyz0123456"
recv: 4 "tail"
bool(true)
int(0)
int(0)
string(5) "again"
