--TEST--
Net: stream_select() in coroutines: ready and idle streams, with and without a timeout, buffered data, files; other coroutines run meanwhile
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, delay, suspend};

function pair(): array
{
    static $srv = null, $addr = null;
    if ($srv === null) {
        [$srv, $addr] = net_listen();
    }
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    return [$c, stream_socket_accept($srv, 5)];
}

function names(?array $set, array $names): string
{
    if ($set === null) {
        return 'null';
    }
    $out = [];
    foreach ($set as $k => $s) {
        $out[] = "$k=" . $names[(int) $s];
    }
    return '[' . implode(', ', $out) . ']';
}

function scenario(string $label): void
{
    [$a, $aPeer] = pair();
    [$b, $bPeer] = pair();
    $names = [(int) $a => 'a', (int) $b => 'b'];
    fwrite($aPeer, "line 1\nline 2\n");

    // One ready, one idle: only the ready one comes back, keys kept.
    $r = ['x' => $a, 'y' => $b];
    $w = $e = null;
    $n = stream_select($r, $w, $e, 5);
    echo "$label: ready+idle -> $n ", names($r, $names), "\n";

    // Data already in PHP's buffer counts as ready.
    fgets($a);
    $r = [$b, $a];
    $n = stream_select($r, $w, $e, 5);
    echo "$label: buffered -> $n ", names($r, $names), "\n";
    fgets($a);

    // Only idle streams and a timeout: 0 after the timeout, the array emptied.
    $r = [$a, $b];
    $t = hrtime(true);
    $n = stream_select($r, $w, $e, 0, 200000);
    $ms = ms_since($t);
    echo "$label: idle -> $n ", names($r, $names), ", waited: ", var_export($ms >= 199 && $ms < 1000 * slow_factor(), true), "\n";

    // A zero timeout looks without waiting.
    $r = [$a, $b];
    $n = stream_select($r, $w, $e, 0);
    echo "$label: zero timeout -> $n ", names($r, $names), "\n";

    // Writable sockets, and a regular file (always ready, as select() says).
    $r = null;
    $w = [$a, $b];
    $n = stream_select($r, $w, $e, 1);
    echo "$label: writable -> $n ", names($w, $names), "\n";
    $file = fopen(__FILE__, 'r');
    $names[(int) $file] = 'file';
    $r = [$b, $file];
    $w = null;
    $n = stream_select($r, $w, $e, 5);
    echo "$label: file -> $n ", names($r, $names), "\n";
}

scenario('stock');

$ticks = 0;
$ticker = spawn(function () use (&$ticks) {
    for (;;) {
        delay(10);
        $ticks++;
    }
});
await(spawn(fn() => scenario('async')));
echo "ticks during the idle select: ", var_export($ticks >= 5, true), "\n";

// No timeout: the select waits until another coroutine writes.
[$c, $peer] = pair();
$writer = spawn(function () use ($peer) {
    delay(50);
    fwrite($peer, "wake up\n");
});
$r = [$c];
$w = $e = null;
$t = hrtime(true);
$n = stream_select($r, $w, $e, null);
echo "no timeout -> $n, after the write: ", var_export(ms_since($t) >= 49, true), "\n";
echo fgets($c);
await($writer);
$ticker->cancel();
?>
--EXPECT--
stock: ready+idle -> 1 [x=a]
stock: buffered -> 1 [1=a]
stock: idle -> 0 [], waited: true
stock: zero timeout -> 0 []
stock: writable -> 2 [0=a, 1=b]
stock: file -> 1 [1=file]
async: ready+idle -> 1 [x=a]
async: buffered -> 1 [1=a]
async: idle -> 0 [], waited: true
async: zero timeout -> 0 []
async: writable -> 2 [0=a, 1=b]
async: file -> 1 [1=file]
ticks during the idle select: true
no timeout -> 1, after the write: true
wake up
