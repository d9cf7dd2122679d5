--TEST--
examples/http_server.php: http_answer() on request heads — pipelining, partial data, bodies, keep-alive rules, every malformed shape
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';

/* The example defines its functions and only serves when it is the main script. */
$example = dirname(async_module_path(), 2) . '/examples/http_server.php';
if (!is_file($example)) {
    $example = __DIR__ . '/../../examples/http_server.php';
}
require $example;

/* Feeds $input in one piece; prints what came back (statuses, in order), the close flag and what stayed. */
function feed(string $label, string $input): void
{
    $close = false;
    $buffer = $input;
    $out = http_answer($buffer, $close);
    preg_match_all('~HTTP/1\.1 (\d{3})[^\r]*\r\n(?:(?!\r\n\r\n).)*?(Connection: close)?\r\n\r\n~s', $out, $m, PREG_SET_ORDER);
    $statuses = array_map(fn($x) => $x[1] . (isset($x[2]) && $x[2] !== '' ? '/close' : ''), $m);
    printf("%-28s [%s] close=%s left=%s\n", $label, implode(' ', $statuses), $close ? 'yes' : 'no',
        json_encode(strlen($buffer) > 100 ? strlen($buffer) . ' bytes' : $buffer));
}

$get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
feed('plain', $get);
feed('two pipelined + partial', $get . $get . "GET / HT");
feed('body, mixed-case length', "POST /p HTTP/1.1\r\nHost: x\r\nCoNtEnT-LeNgTh: 5\r\n\r\nabcde" . $get);
feed('body still arriving', "POST /p HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc");
feed('zero length body', "POST /p HTTP/1.1\r\nContent-Length: 0\r\n\r\n" . $get);
feed('chunked', "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
feed('bad content-length', "POST /p HTTP/1.1\r\nContent-Length: -1\r\n\r\n");
feed('content-length too long', "POST /p HTTP/1.1\r\nContent-Length: 1234567890123456789\r\n\r\n");
feed('header without colon', "GET / HTTP/1.1\r\nHost x\r\n\r\n");
feed('bare LF in head', "GET / HTTP/1.1\r\nHost: x\nX: y\r\n\r\n");
feed('space before colon', "GET / HTTP/1.1\r\nHost : x\r\n\r\n");
feed('bad char in name', "GET / HTTP/1.1\r\nHo(st: x\r\n\r\n");
feed('folded header line', "GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n");
feed('double space in line', "GET  / HTTP/1.1\r\n\r\n");
feed('HTTP/2.0', "GET / HTTP/2.0\r\n\r\n");
feed('no version', "GET /\r\n\r\n");
feed('lowercase method', "get / HTTP/1.1\r\n\r\n");
feed('X-Connection ignored', "GET / HTTP/1.1\r\nX-Connection: close\r\n\r\n");
feed('Connection: keep-alive,close', "GET / HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n" . $get);
feed('Connection: CLOSE tabbed', "GET / HTTP/1.1\r\nConnection:\tCLOSE\t\r\n\r\n");
feed('HTTP/1.0 plain', "GET / HTTP/1.0\r\n\r\n" . $get);
feed('HTTP/1.0 keep-alive', "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n" . $get);
feed('valid then garbage', $get . "garbage\r\n\r\n" . $get);
feed('empty buffer', '');
feed('incomplete head', "GET / HTTP/1.1\r\nHost: x\r\n");
feed('huge incomplete head', "GET / HTTP/1.1\r\nX: " . str_repeat('a', 70000));
feed('huge complete head', "GET / HTTP/1.1\r\nX: " . str_repeat('a', 70000) . "\r\n\r\n");

/* Byte by byte: the same answers as in one piece, and nothing lost between calls. */
$stream = $get . "POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nxyz" . "GET / HTTP/1.0\r\n\r\n";
$buffer = '';
$close = false;
$all = '';
foreach (str_split($stream) as $byte) {
    $buffer .= $byte;
    $all .= http_answer($buffer, $close);
}
echo 'byte by byte: ', substr_count($all, '200 OK'), ' answers, close=', $close ? 'yes' : 'no',
    ', last closes=', str_ends_with($all, "Connection: close\r\n\r\nHello") ? 'yes' : 'no', ', left=', json_encode($buffer), "\n";
?>
--EXPECT--
plain                        [200] close=no left=""
two pipelined + partial      [200 200] close=no left="GET \/ HT"
body, mixed-case length      [200 200] close=no left=""
body still arriving          [] close=no left="POST \/p HTTP\/1.1\r\nContent-Length: 10\r\n\r\nabc"
zero length body             [200 200] close=no left=""
chunked                      [501/close] close=yes left=""
bad content-length           [400/close] close=yes left=""
content-length too long      [400/close] close=yes left=""
header without colon         [400/close] close=yes left=""
bare LF in head              [400/close] close=yes left=""
space before colon           [400/close] close=yes left=""
bad char in name             [400/close] close=yes left=""
folded header line           [400/close] close=yes left=""
double space in line         [400/close] close=yes left=""
HTTP/2.0                     [400/close] close=yes left=""
no version                   [400/close] close=yes left=""
lowercase method             [200] close=no left=""
X-Connection ignored         [200] close=no left=""
Connection: keep-alive,close [200/close] close=yes left=""
Connection: CLOSE tabbed     [200/close] close=yes left=""
HTTP/1.0 plain               [200/close] close=yes left=""
HTTP/1.0 keep-alive          [200 200] close=no left=""
valid then garbage           [200 400/close] close=yes left=""
empty buffer                 [] close=no left=""
incomplete head              [] close=no left="GET \/ HTTP\/1.1\r\nHost: x\r\n"
huge incomplete head         [431/close] close=yes left="70019 bytes"
huge complete head           [200] close=no left=""
byte by byte: 3 answers, close=yes, last closes=yes, left=""
