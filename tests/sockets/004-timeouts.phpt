--TEST--
ext/sockets: SO_RCVTIMEO / SO_SNDTIMEO bound the waits, with PHP's own outcome (EAGAIN, no warning), while others run
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $p); // read side: nobody writes
socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $q); // write side: nobody reads
socket_set_option($p[0], SOL_SOCKET, SO_RCVTIMEO, ['sec' => 0, 'usec' => 150000]);
socket_set_option($q[1], SOL_SOCKET, SO_SNDTIMEO, ['sec' => 0, 'usec' => 150000]);

$ticks = 0;
$ticker = spawn(function () use (&$ticks) {
    for ($i = 0; $i < 5; $i++) {
        delay(10);
        $ticks++;
    }
});
$reader = spawn(function () use ($p) {
    $t = hrtime(true);
    $r = socket_read($p[0], 10);
    $e = socket_last_error($p[0]);
    $n = socket_recv($p[0], $buf, 10, MSG_WAITALL);
    return [$r, $e, $n, $buf, socket_last_error(), ms_since($t)];
});
$writer = spawn(function () use ($q) {
    // Nobody reads: the kernel buffer fills, then the send timeout stops the write part-way.
    $t = hrtime(true);
    $total = 4 * 1024 * 1024;
    $n = socket_write($q[1], str_repeat('x', $total));
    $second = socket_write($q[1], 'more');
    return [$n > 0 && $n < $total, $second, socket_last_error($q[1]), ms_since($t)];
});

[$r, $e, $n, $buf, $last, $ms] = await($reader);
var_dump($r, $e === SOCKET_EAGAIN, $n, $buf, $last === SOCKET_EAGAIN, $ms >= 290, $ms < 900 * slow_factor());
[$partial, $second, $werr, $wms] = await($writer);
var_dump($partial, $second, $werr === SOCKET_EAGAIN, $wms >= 290, $wms < 900 * slow_factor());
await($ticker);
var_dump($ticks);
?>
--EXPECT--
bool(false)
bool(true)
bool(false)
NULL
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
int(5)
