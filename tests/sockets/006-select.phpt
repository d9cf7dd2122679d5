--TEST--
ext/sockets: socket_select in a coroutine waits for the first ready socket or the timeout; arrays filtered as PHP does
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

$pairs = [];
for ($i = 0; $i < 3; $i++) {
    socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $pairs[$i]);
}
$log = [];
$selector = spawn(function () use ($pairs, &$log) {
    $read = ['a' => $pairs[0][0], 'b' => $pairs[1][0], 'c' => $pairs[2][0]];
    $write = null;
    $except = null;
    $log[] = 'select';
    $n = socket_select($read, $write, $except, 5);
    $log[] = "ready $n: " . implode(',', array_keys($read));

    // The timeout: nothing ready, empty arrays after ~100 ms.
    $read = [$pairs[0][0]];
    $t = hrtime(true);
    $n = socket_select($read, $write, $except, 0, 100000);
    $ms = ms_since($t);
    $log[] = "timeout $n " . count($read) . ' ' . ($ms >= 95 && $ms < 600 * slow_factor() ? 'in time' : "after $ms ms");

    // Writable at once, and a socket listed twice counts once (as select() counts descriptors).
    $read = null;
    $write = [$pairs[0][0], $pairs[0][0], 'x' => $pairs[1][1]];
    $n = socket_select($read, $write, $except, null);
    $log[] = "writable $n: " . implode(',', array_keys($write));
});
$writer = spawn(function () use ($pairs, &$log) {
    delay(20);
    $log[] = 'write b';
    socket_write($pairs[1][1], 'x');
});
await($selector);
await($writer);
echo implode("\n", $log), "\n";

// Argument errors are PHP's own.
await(spawn(function () use ($pairs) {
    $e = null;
    foreach ([[[1], null], [[], null], [null, null]] as [$r, $w]) {
        try {
            socket_select($r, $w, $e, 0);
        } catch (Throwable $ex) {
            echo get_class($ex), ': ', $ex->getMessage(), "\n";
        }
    }
    $closed = $pairs[2][1];
    socket_close($closed);
    $r = [$closed];
    try {
        socket_select($r, $w, $e, 0);
    } catch (Throwable $ex) {
        echo get_class($ex), ': ', $ex->getMessage(), "\n";
    }
}));
?>
--EXPECT--
select
write b
ready 1: b
timeout 0 0 in time
writable 2: 0,1,x
TypeError: socket_select(): Argument #1 ($read) must only have elements of type Socket, int given
ValueError: socket_select(): At least one array argument must be passed
ValueError: socket_select(): At least one array argument must be passed
TypeError: socket_select(): Argument #1 ($read) contains a closed socket
