<?php
/*
 * An HTTP/1.1 keep-alive server in plain PHP: stream_socket_server(), and one coroutine per
 * connection. Every connection reads with plain fread()/fwrite(); inside a coroutine those
 * suspend only that connection, so thousands of clients are served by one process.
 *
 * Run:   php -n -d extension=modules/async.so examples/http_server.php [127.0.0.1:8080]
 *        (port 0 picks a free one; the address is printed on the first line of stdout)
 * Try:   curl -v http://127.0.0.1:8080/   or   wrk -c 64 -d 5 http://127.0.0.1:8080/
 *
 * Every request gets "Hello". It understands request lines and headers, bodies announced by
 * Content-Length (read and discarded), keep-alive (HTTP/1.1 by default, HTTP/1.0 when asked)
 * and pipelining: all requests already received are answered with one write.
 */
use function Async\spawn;

const MAX_HEADER_BYTES = 65536;
const READ_CHUNK = 65536;

/* A whole request head at an offset of the buffer, checked in one match: the request line, every
 * header line ("name: value", no bare CR or LF) and the blank line. Captures the method, the target,
 * the minor version and the header block. */
const REQUEST_HEAD = '/\G([!#$%&\'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.([01])\r\n((?:[!#$%&\'*+.^_`|~0-9A-Za-z-]+:[^\r\n]*\r\n)*)\r\n/';
/* The headers this server acts on; a head without them needs no header table at all. */
const HEADERS_OF_INTEREST = '/^(?:content-length|transfer-encoding|connection)[ \t]*:/im';
/* One header line of a block REQUEST_HEAD has checked, matched one after the other (\G). */
const HEADER_LINE = '/\G([!#$%&\'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\r\n]*?)[ \t]*\r\n/';
const HELLO = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nHello";
const HELLO_CLOSE = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: close\r\n\r\nHello";

/* The header table of a header block REQUEST_HEAD has checked: names lower-cased, values without
 * the blanks around them. */
function http_headers(string $block): array
{
    preg_match_all(HEADER_LINE, $block, $h);
    return array_change_key_case(array_combine($h[1], $h[2]));
}

/* HTTP/1.1 keeps the connection unless "Connection: close"; HTTP/1.0 only with "keep-alive". */
function http_keep_alive(int $minor, array $headers): bool
{
    if (!isset($headers['connection'])) {
        return $minor === 1;
    }
    $tokens = array_map('trim', explode(',', strtolower($headers['connection'])));
    return $minor === 1 ? !in_array('close', $tokens, true) : in_array('keep-alive', $tokens, true);
}

function http_response(int $status, string $reason, string $body, bool $keep_alive): string
{
    return "HTTP/1.1 $status $reason\r\nContent-Type: text/plain\r\nContent-Length: " . strlen($body) . "\r\n"
        . ($keep_alive ? '' : "Connection: close\r\n") . "\r\n" . $body;
}

/* The answer to a request this server will not serve; the connection closes after it and nothing
 * more of it is read. */
function http_refusal(string &$buffer, bool &$close, int $status, string $reason): string
{
    $close = true;
    $buffer = '';
    return http_response($status, $reason, "$reason\n", false);
}

/*
 * Takes the complete requests at the start of $buffer and returns their responses, or null when
 * the connection must close after them ($close set). Incomplete data stays in $buffer.
 *
 * Each head is checked by one regular expression (PCRE's JIT) at its offset in the buffer; the
 * header table is only built when a header this server acts on is present (Content-Length,
 * Transfer-Encoding, Connection). A head that is complete but does not match is a bad request.
 */
function http_answer(string &$buffer, bool &$close): string
{
    $out = '';
    $at = 0;
    $size = strlen($buffer);
    while ($at < $size) {
        if (!preg_match(REQUEST_HEAD, $buffer, $m, 0, $at)) {
            $end = strpos($buffer, "\r\n\r\n", $at);
            if ($end === false) {
                break; // the head is still arriving
            }
            return $out . http_refusal($buffer, $close, 400, 'Bad Request');
        }
        $next = $at + strlen($m[0]);
        $keep = $m[3] === '1';
        if ($m[4] !== '' && preg_match(HEADERS_OF_INTEREST, $m[4])) {
            $headers = http_headers($m[4]);
            if (isset($headers['transfer-encoding'])) {
                // chunked bodies are not supported by this small server
                return $out . http_refusal($buffer, $close, 501, 'Not Implemented');
            }
            $length = $headers['content-length'] ?? '0';
            if ($length !== '0' && !preg_match('/\A[0-9]{1,18}\z/', $length)) {
                return $out . http_refusal($buffer, $close, 400, 'Bad Request');
            }
            if ($size < $next + (int) $length) {
                break; // the body is still arriving
            }
            $next += (int) $length;
            $keep = http_keep_alive((int) $m[3], $headers);
        }
        $at = $next;
        $out .= $keep ? HELLO : HELLO_CLOSE;
        if (!$keep) {
            $close = true;
            $buffer = '';
            return $out;
        }
    }
    $buffer = $at === $size ? '' : substr($buffer, $at);
    if (strlen($buffer) > MAX_HEADER_BYTES) {
        $close = true;
        $out .= http_response(431, 'Request Header Fields Too Large', "Too Large\n", false);
    }
    return $out;
}

/* One connection: read what comes, answer every complete request, until either side closes. */
function http_connection($conn): void
{
    $buffer = '';
    $close = false;
    try {
        while (!$close) {
            $chunk = fread($conn, READ_CHUNK);
            if ($chunk === false || $chunk === '') {
                break; // the client closed (or the read failed)
            }
            $buffer .= $chunk;
            $out = http_answer($buffer, $close);
            if ($out !== '' && fwrite($conn, $out) !== strlen($out)) {
                break;
            }
        }
    } finally {
        fclose($conn);
    }
}

/* Accepts until $max_connections were served (null: forever). */
function http_serve($server, ?int $max_connections = null): void
{
    for ($served = 0; $max_connections === null || $served < $max_connections; $served++) {
        $conn = @stream_socket_accept($server, -1);
        if ($conn === false) {
            continue;
        }
        spawn('http_connection', $conn);
    }
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    $address = $argv[1] ?? '127.0.0.1:8080';
    $context = stream_context_create(['socket' => ['backlog' => 1024, 'so_reuseport' => false]]);
    $server = stream_socket_server("tcp://$address", $errno, $errstr,
        STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
    if ($server === false) {
        fwrite(STDERR, "cannot listen on $address: $errstr\n");
        exit(1);
    }
    echo 'listening on ', stream_socket_get_name($server, false), "\n";
    http_serve($server);
}
