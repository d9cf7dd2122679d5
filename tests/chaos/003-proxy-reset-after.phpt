--TEST--
Chaos proxy: reset_after=N gives exactly N bytes, then a reset (ECONNRESET), in and outside coroutines
--EXTENSIONS--
sockets
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
use function Async\{spawn, await};

$echo = ChaosEcho::start();
$proxy = ChaosProxy::start($echo->addr, 'down:reset_after=5');
$conn = 0;

/* A stream client: PHP's stream layer shows the reset as fread() === false (no errno), an
 * orderly EOF as ''. */
function stream_client(ChaosProxy $proxy, int $id): void
{
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, '0123456789');
    [$got, $how] = chaos_read($c);
    echo "stream: got '$got', then $how\n";
    fclose($c);
    echo '  proxy: ', $proxy->waitEvent("/^conn $id reset /"), "\n";
}

/* ext/sockets shows the errno. */
function socket_client(ChaosProxy $proxy, int $id): void
{
    [$host, $port] = explode(':', $proxy->addr);
    $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_connect($s, $host, (int) $port);
    socket_write($s, '0123456789');
    $got = '';
    while (($n = @socket_recv($s, $buf, 100, 0)) > 0) {
        $got .= $buf;
    }
    $err = socket_last_error($s);
    echo "socket: got '$got', then ", $n === false ? 'error ' . ($err === SOCKET_ECONNRESET ? 'ECONNRESET' : $err) : 'EOF', "\n";
    socket_close($s);
    $proxy->waitEvent("/^conn $id reset /");
}

stream_client($proxy, ++$conn);
socket_client($proxy, ++$conn);
await(spawn(fn () => stream_client($proxy, 3)));
await(spawn(fn () => socket_client($proxy, 4)));

// Toward the upstream: it receives exactly 4 bytes, then the reset; the client is reset too.
$proxy->fault('up:reset_after=4');
await(spawn(function () use ($proxy, $echo) {
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, 'abcdefgh');
    [$got, $how] = chaos_read($c);
    echo "up:reset_after=4: client got '$got', then $how\n";
    echo '  upstream: ', $echo->waitEvent('/^closed 5 /'), "\n";
    echo '  proxy: ', $proxy->waitEvent('/^conn 5 reset /'), "\n";
}));
$s = $proxy->stats();
echo "conn 1: down_read={$s[1]['down_read']} down_sent={$s[1]['down_sent']} state={$s[1]['state']}\n";
echo "conn 5: up_read={$s[5]['up_read']} up_sent={$s[5]['up_sent']} state={$s[5]['state']}\n";
?>
--EXPECT--
stream: got '01234', then error
  proxy: conn 1 reset why="down reset_after=5"
socket: got '01234', then error ECONNRESET
stream: got '01234', then error
  proxy: conn 3 reset why="down reset_after=5"
socket: got '01234', then error ECONNRESET
up:reset_after=4: client got '', then error
  upstream: closed 5 received=4
  proxy: conn 5 reset why="up reset_after=4"
conn 1: down_read=10 down_sent=5 state=reset
conn 5: up_read=8 up_sent=4 state=reset
