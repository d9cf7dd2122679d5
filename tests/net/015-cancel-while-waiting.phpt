--TEST--
Net: cancelling a coroutine that waits in connect, read, accept or stream_select ends the wait with the cancellation; the socket stays usable
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, suspend, delay};

[$srv, $addr] = net_listen();
$c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
$peer = stream_socket_accept($srv, 5);

function outcome($coroutine): string
{
    try {
        return 'returned ' . var_export(await($coroutine), true);
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}

$reader = spawn(fn() => fread($c, 10));
suspend();
$reader->cancel();
echo 'read: ', outcome($reader), "\n";

$selector = spawn(function () use ($c) {
    $r = [$c];
    $w = $e = null;
    return stream_select($r, $w, $e, null);
});
suspend();
$selector->cancel();
echo 'select: ', outcome($selector), "\n";

[$lonely, $lonelyAddr] = net_listen();
// PHP's stream_socket_accept() still reports its failure as a warning when the wait was cancelled.
$acceptor = spawn(fn() => stream_socket_accept($lonely, 10));
suspend();
$acceptor->cancel();
echo 'accept: ', outcome($acceptor), "\n";

// A connect to a full accept queue is waiting for the SYN/ACK when it is cancelled.
[$full, $fullAddr] = net_listen(backlog: 0);
$held = stream_socket_client("tcp://$fullAddr", $errno, $errstr, 5);
$connector = spawn(fn() => @stream_socket_client("tcp://$fullAddr", $errno, $errstr, 10));
delay(20);
$connector->cancel();
echo 'connect: ', outcome($connector), "\n";

// The socket the cancelled coroutines waited on still works.
$reader = spawn(fn() => fgets($c));
suspend();
fwrite($peer, "still fine\n");
echo 'afterwards: ', await($reader);
?>
--EXPECTF--
read: Async\AsyncCancellation: Coroutine cancelled
select: Async\AsyncCancellation: Coroutine cancelled
accept: %AWarning: stream_socket_accept(): Accept failed: Operation canceled in %s on line %d
Async\AsyncCancellation: Coroutine cancelled
connect: Async\AsyncCancellation: Coroutine cancelled
afterwards: still fine
