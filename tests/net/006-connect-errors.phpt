--TEST--
Net: connect timeout, refused, bad addresses and IPv6 report exactly PHP's warnings, errno and errstr, inside and outside coroutines
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, delay};

function show(string $label, $stream, int $errno, string $errstr): void
{
    echo "$label: ", $stream === false ? 'false' : get_resource_type($stream), " errno=$errno errstr=$errstr\n";
}

function scenario(string $label): void
{
    // A listener with a full accept queue drops SYNs: the connect times out.
    [$full, $fullAddr] = net_listen(backlog: 0);
    $held = stream_socket_client("tcp://$fullAddr", $errno, $errstr, 5);
    $t = hrtime(true);
    $s = stream_socket_client("tcp://$fullAddr", $errno, $errstr, 0.3);
    $ms = ms_since($t);
    show("$label timeout", $s, $errno, $errstr);
    echo "$label: waited the connect timeout: ", var_export($ms >= 299 && $ms < 1500 * slow_factor(), true), "\n";

    // A closed port: refused at once.
    [$srv, $addr] = net_listen();
    fclose($srv);
    $s = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    show("$label refused", $s, $errno, $errstr);
    [$host, $port] = explode(':', $addr);
    $s = fsockopen($host, (int) $port, $errno, $errstr, 5);
    show("$label fsockopen", $s, $errno, $errstr);

    // Addresses PHP cannot parse, and a unix socket that does not exist.
    $s = stream_socket_client("tcp://127.0.0.1", $errno, $errstr, 5);
    show("$label no port", $s, $errno, $errstr);
    $s = stream_socket_client("tcp://[::1", $errno, $errstr, 5);
    show("$label bad v6", $s, $errno, $errstr);
    $s = stream_socket_client("unix:///nonexistent/net-006.sock", $errno, $errstr, 5);
    show("$label unix", $s, $errno, $errstr);

    // IPv6 loopback, when the machine has it: connected, then refused after close.
    $v6 = @stream_socket_server("tcp://[::1]:0", $errno, $errstr);
    if ($v6 === false) {
        echo "$label v6: resource\n$label v6 refused: false errno=111 errstr=Connection refused\n";
        return;
    }
    $v6addr = stream_socket_get_name($v6, false);
    $port6 = substr($v6addr, strrpos($v6addr, ':') + 1);
    $s = stream_socket_client("tcp://[::1]:$port6", $errno, $errstr, 5);
    echo "$label v6: ", get_resource_type($s), "\n";
    fclose($s);
    fclose($v6);
    $s = @stream_socket_client("tcp://[::1]:$port6", $errno, $errstr, 5);
    show("$label v6 refused", $s, $errno, $errstr);
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
echo "other coroutines ran during the connect timeout: ", var_export($ticks >= 20, true), "\n";
$ticker->cancel();
?>
--EXPECTF--
Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1:%d (Connection timed out) in %s on line %d
stock timeout: false errno=110 errstr=Connection timed out
stock: waited the connect timeout: true

Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1:%d (Connection refused) in %s on line %d
stock refused: false errno=111 errstr=Connection refused

Warning: fsockopen(): Unable to connect to 127.0.0.1:%d (Connection refused) in %s on line %d
stock fsockopen: false errno=111 errstr=Connection refused

Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1 (Failed to parse address "127.0.0.1") in %s on line %d
stock no port: false errno=0 errstr=Failed to parse address "127.0.0.1"

Warning: stream_socket_client(): Unable to connect to tcp://[::1 (Failed to parse IPv6 address "[::1") in %s on line %d
stock bad v6: false errno=0 errstr=Failed to parse IPv6 address "[::1"

Warning: stream_socket_client(): Unable to connect to unix:///nonexistent/net-006.sock (No such file or directory) in %s on line %d
stock unix: false errno=2 errstr=No such file or directory
stock v6: stream
stock v6 refused: false errno=111 errstr=Connection refused

Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1:%d (Connection timed out) in %s on line %d
async timeout: false errno=110 errstr=Connection timed out
async: waited the connect timeout: true

Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1:%d (Connection refused) in %s on line %d
async refused: false errno=111 errstr=Connection refused

Warning: fsockopen(): Unable to connect to 127.0.0.1:%d (Connection refused) in %s on line %d
async fsockopen: false errno=111 errstr=Connection refused

Warning: stream_socket_client(): Unable to connect to tcp://127.0.0.1 (Failed to parse address "127.0.0.1") in %s on line %d
async no port: false errno=0 errstr=Failed to parse address "127.0.0.1"

Warning: stream_socket_client(): Unable to connect to tcp://[::1 (Failed to parse IPv6 address "[::1") in %s on line %d
async bad v6: false errno=0 errstr=Failed to parse IPv6 address "[::1"

Warning: stream_socket_client(): Unable to connect to unix:///nonexistent/net-006.sock (No such file or directory) in %s on line %d
async unix: false errno=2 errstr=No such file or directory
async v6: stream
async v6 refused: false errno=111 errstr=Connection refused
other coroutines ran during the connect timeout: true
