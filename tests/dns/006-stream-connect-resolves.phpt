--TEST--
Stream connects resolve host names on the thread pool: only the connecting coroutine waits; failures warn as PHP does
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
default_socket_timeout=5
--FILE--
<?php
use function Async\{spawn, await};

$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
$port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);

function attempt(string $uri): array {
    $warnings = [];
    set_error_handler(function ($no, $msg) use (&$warnings) { $warnings[] = $msg; return true; });
    $s = stream_socket_client($uri, $errno, $errstr, 5);
    restore_error_handler();
    return [$s !== false, $errno, $errstr, $warnings];
}

// PHP's own answer, before anything is spawned.
$stock = attempt('tcp://a..b:80');
var_dump($stock[0]);
echo $stock[2], "\n", $stock[3][0], "\n";

// A name that cannot resolve: the failing coroutine is suspended while the lookup runs.
$log = [];
$a = spawn(function () use (&$log) {
    $log[] = 'A resolves';
    $r = attempt('tcp://a..b:80');
    $log[] = 'A failed';
    return $r;
});
$b = spawn(function () use (&$log) {
    $log[] = 'B runs';
});
$inside = await($a);
await($b);
echo implode(', ', $log), "\n";
var_dump($inside === $stock);

// A name that resolves (from /etc/hosts): connected, and the server sees the client.
$acceptor = spawn(function () use ($server) {
    $c = stream_socket_accept($server, 5);
    return fgets($c);
});
$client = spawn(function () use ($port) {
    $s = stream_socket_client("tcp://localhost:$port", $errno, $errstr, 5);
    fwrite($s, "via localhost\n");
    $f = fsockopen('localhost', $port, $errno, $errstr, 5); // fsockopen resolves the same way
    return $f !== false;
});
var_dump(await($client));
echo await($acceptor);
?>
--EXPECTF--
bool(false)
php_network_getaddresses: getaddrinfo for a..b failed: %s
stream_socket_client(): php_network_getaddresses: getaddrinfo for a..b failed: %s
A resolves, B runs, A failed
bool(true)
bool(true)
via localhost
