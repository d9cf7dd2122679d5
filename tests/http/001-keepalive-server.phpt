--TEST--
examples/http_server.php: 8 keep-alive clients at once, pipelining, bodies, Connection: close, HTTP/1.0, bad requests
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';

/* The example ships beside the module that is being tested (run-phpt.sh copies tests/ elsewhere). */
$so = async_module_path();
$example = dirname($so, 2) . '/examples/http_server.php';
if (!is_file($example)) {
    $example = __DIR__ . '/../../examples/http_server.php';
}
$proc = proc_open([PHP_BINARY, '-n', '-d', "extension=$so", $example, '127.0.0.1:0'],
    [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$r = [$pipes[1]];
$w = $e = null;
if (!stream_select($r, $w, $e, 10)) {
    die("server did not start: " . stream_get_contents($pipes[2]));
}
$line = fgets($pipes[1]);
if (!preg_match('/listening on 127\.0\.0\.1:(\d+)/', $line, $m)) {
    die("unexpected: $line" . stream_get_contents($pipes[2]));
}
$port = (int) $m[1];

function connect(int $port) {
    $s = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5);
    stream_set_timeout($s, 5);
    return $s;
}

/* One response: [status line, headers (lower-cased names), body]; null at end of stream. */
function read_response($s): ?array {
    $head = '';
    while (!str_contains($head, "\r\n\r\n")) {
        $c = fgetc($s);
        if ($c === false) {
            return $head === '' ? null : ['TRUNCATED ' . $head, [], ''];
        }
        $head .= $c;
    }
    $lines = explode("\r\n", rtrim($head));
    $status = array_shift($lines);
    $headers = [];
    foreach ($lines as $l) {
        [$k, $v] = explode(':', $l, 2);
        $headers[strtolower($k)] = trim($v);
    }
    $body = '';
    $n = (int) ($headers['content-length'] ?? 0);
    while (strlen($body) < $n && !feof($s)) {
        $body .= fread($s, $n - strlen($body));
    }
    return [$status, $headers, $body];
}

function describe(?array $resp): string {
    if ($resp === null) {
        return 'EOF';
    }
    return $resp[0] . ' | ' . rtrim($resp[2]) . (isset($resp[1]['connection']) ? ' | connection: ' . $resp[1]['connection'] : '');
}

// 1. Eight connections open at once, five requests each, interleaved: a server handling one
//    connection at a time could never answer the second client while the first stays open.
$clients = [];
for ($i = 0; $i < 8; $i++) {
    $clients[$i] = connect($port);
}
$ok = 0;
for ($round = 0; $round < 5; $round++) {
    foreach ($clients as $i => $s) {
        fwrite($s, "GET /r$round/c$i HTTP/1.1\r\nHost: localhost\r\nUser-Agent: test\r\n\r\n");
    }
    foreach ($clients as $i => $s) {
        $d = describe(read_response($s));
        $d === 'HTTP/1.1 200 OK | Hello' ? $ok++ : print("client $i round $round: $d\n");
    }
}
echo "keep-alive: $ok of 40\n";

// 2. Pipelining: three requests in one write, one with a body, answered in order.
$s = $clients[0];
fwrite($s, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\na=1&b=2GET /c HTTP/1.1\r\nHost: x\r\n\r\n");
for ($i = 0; $i < 3; $i++) {
    echo 'pipelined: ', describe(read_response($s)), "\n";
}

// 3. A request that arrives in pieces, its body last.
$s = $clients[1];
fwrite($s, "POST /slow HTTP/1.1\r\nHost: x\r\nConte");
usleep(20000);
fwrite($s, "nt-Length: 5\r\n\r\n");
usleep(20000);
fwrite($s, "12345");
echo 'pieces: ', describe(read_response($s)), "\n";

// 4. Connection: close is honoured, then the server closes.
$s = $clients[2];
fwrite($s, "GET / HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n");
echo 'close: ', describe(read_response($s)), ' then ', describe(read_response($s)), "\n";

// 5. HTTP/1.0 closes unless asked to keep alive.
$s = connect($port);
fwrite($s, "GET / HTTP/1.0\r\n\r\n");
echo 'http/1.0: ', describe(read_response($s)), ' then ', describe(read_response($s)), "\n";
$s = connect($port);
fwrite($s, "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
echo 'http/1.0 keep-alive: ', describe(read_response($s)), "\n";
fwrite($s, "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
echo 'http/1.0 keep-alive: ', describe(read_response($s)), "\n";

// 6. Garbage gets 400 and the connection closes.
$s = connect($port);
fwrite($s, "NONSENSE\r\n\r\n");
echo 'bad: ', describe(read_response($s)), ' then ', describe(read_response($s)), "\n";

// The other connections were not disturbed by any of that.
fwrite($clients[7], "GET /last HTTP/1.1\r\nHost: x\r\n\r\n");
echo 'still alive: ', describe(read_response($clients[7])), "\n";

proc_terminate($proc);
proc_close($proc);
?>
--EXPECT--
keep-alive: 40 of 40
pipelined: HTTP/1.1 200 OK | Hello
pipelined: HTTP/1.1 200 OK | Hello
pipelined: HTTP/1.1 200 OK | Hello
pieces: HTTP/1.1 200 OK | Hello
close: HTTP/1.1 200 OK | Hello | connection: close then EOF
http/1.0: HTTP/1.1 200 OK | Hello | connection: close then EOF
http/1.0 keep-alive: HTTP/1.1 200 OK | Hello
http/1.0 keep-alive: HTTP/1.1 200 OK | Hello
bad: HTTP/1.1 400 Bad Request | Bad Request | connection: close then EOF
still alive: HTTP/1.1 200 OK | Hello
