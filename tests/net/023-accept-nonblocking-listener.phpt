--TEST--
stream_socket_accept($server, $timeout) on a non-blocking listener suspends only the caller: it accepts a client connecting meanwhile, times out while others run, and honours cancellation
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, delay, suspend};

$srv = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr);
stream_set_blocking($srv, false);
$addr = stream_socket_get_name($srv, false);

// 1. A client that connects after the accept started waiting is accepted (the old module polled
//    for the whole timeout, so the client only connected after accept() had given up).
$a = spawn(function () use ($srv) {
    $c = stream_socket_accept($srv, 30);
    return $c === false ? "false" : fgets($c);
});
$b = spawn(function () use ($addr) {
    $c = stream_socket_client("tcp://$addr");
    fwrite($c, "hello\n");
    return $c;
});
var_dump(await($a));
fclose(await($b));

// 2. Nobody connects: false after the timeout, while another coroutine kept running.
$done = false;
$ticks = 0;
$ticker = spawn(function () use (&$done, &$ticks) { while (!$done) { delay(1); $ticks++; } });
$t0 = hrtime(true);
$r = await(spawn(function () use ($srv, &$done) { $c = @stream_socket_accept($srv, 0.05); $done = true; return $c; }));
var_dump($r, (hrtime(true) - $t0) >= 50e6, $ticks > 0);
await($ticker);

// 3. Cancelled while waiting: the cancellation comes out of stream_socket_accept() (which also
//    warns "Accept failed: Operation canceled", as PHP warns on every failed accept).
$w = spawn(function () use ($srv) {
    try { @stream_socket_accept($srv, 30); echo "not reached\n"; }
    catch (Async\AsyncCancellation $e) { echo "cancelled: ", $e->getMessage(), "\n"; throw $e; }
});
suspend();
$w->cancel();
try { await($w); } catch (Async\AsyncCancellation $e) { echo "await: ", get_class($e), "\n"; }

// 4. Without a timeout a non-blocking listener answers at once, as stock PHP does; outside
//    coroutines it behaves as stock PHP too.
var_dump(await(spawn(fn() => @stream_socket_accept($srv, 0))));
var_dump(@stream_socket_accept($srv, 0));
$c = stream_socket_client("tcp://$addr");
$s = stream_socket_accept($srv, 5);
var_dump(is_resource($s));
echo "done\n";
?>
--EXPECT--
string(6) "hello
"
bool(false)
bool(true)
bool(true)
cancelled: Coroutine cancelled
await: Async\AsyncCancellation
bool(false)
bool(false)
bool(true)
done
