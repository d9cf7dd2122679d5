<?php
/*
 * An HTTP/1.1 keep-alive server in plain PHP: stream_socket_server(), and one coroutine per
 * connection. Every connection reads with plain fread()/fwrite(); inside a coroutine those
 * suspend only that connection, so thousands of clients are served by one process.
 *
 * Run:   php -n -d extension=modules/async.so examples/http_server.php [127.0.0.1:8080] [options]
 *        (port 0 picks a free one; the address is printed on the first line of stdout)
 *        --stats[=MS]     print a line of figures every MS ms (default 1000) when they changed:
 *                         open and idle connections, memory_get_usage() and its growth per open
 *                         connection since the server started, refused, shed, failed accepts
 *        --delay-ms=N     wait N ms on a timer before each answer (a backend's latency)
 *        --backlog=N      the listen backlog (default 1024; the kernel caps it at somaxconn)
 * Try:   curl -v http://127.0.0.1:8080/   or   wrk -c 64 -d 5 http://127.0.0.1:8080/
 *
 * Every request gets "Hello". It understands request lines and headers, bodies announced by
 * Content-Length (read and discarded), keep-alive (HTTP/1.1 by default, HTTP/1.0 when asked)
 * and pipelining: all requests already received are answered with one write.
 *
 * A flood does not kill it. An idle keep-alive connection waits in fread() holding no buffer (the
 * runtime waits for data before PHP allocates the 64 KiB asked for): a few KiB of PHP memory
 * each. When accept() fails for want of descriptors (EMFILE, ENFILE; the runtime has already
 * backed off on a timer instead of spinning), the server closes keep-alive connections idle for
 * over a second, oldest first, and refuses what waits in the backlog: a spare descriptor kept for
 * this is given up, each pending connection is accepted, answered 503 and closed, and the spare
 * is taken back. Above 80% of memory_limit new connections are refused the same way; above half
 * of it reads take under 1 KiB at a time instead of 64 KiB (the heap may be too fragmented for the
 * larger buffer).
 */
use function Async\spawn;
use function Async\suspend;
use function Async\delay;
use function Async\current_coroutine;

const MAX_HEADER_BYTES = 65536;
const READ_CHUNK = 65536;
/* Above half of memory_limit reads take at most this: a 64 KiB buffer is 16 contiguous pages of
 * PHP's allocator, which a heap fragmented by thousands of connections may not have free while
 * memory_get_usage() still shows room, and one more 2 MiB chunk would pass the limit (a fatal
 * error, seen at 4 MiB under a flood); a string of this size takes one page's slot. */
const LEAN_READ_CHUNK = 1024 - 32;
/* Accepts in a row before the accepting coroutine lets the new connections start: a backlog
 * accepted at once would all pass the memory check before any of them had allocated anything. */
const ACCEPT_BURST = 16;
/* Under a flood: keep-alive connections idle this long may be closed to make room, this many at a
 * time; at most this many pending connections are refused per failed accept. */
const SHED_IDLE_AFTER_NS = 1_000_000_000;
const SHED_IDLE_BATCH = 64;
const REFUSE_BATCH = 1024;
const SERVICE_UNAVAILABLE = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 12\r\nConnection: close\r\n\r\nUnavailable\n";

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

/* What the server keeps to survive a flood: its open connections, those idle between requests
 * (oldest first: an array keeps insertion order), a spare descriptor, and counts. */
final class HttpServer
{
    /** @var array<int, Async\Coroutine> */
    public array $open = [];
    /** @var array<int, int> connection => hrtime(true) when it began to wait for a request */
    public array $idle = [];
    public int $next = 0;
    public int $refused = 0;     // answered 503 and closed at once
    public int $shed = 0;        // idle keep-alive connections closed to make room
    public int $exhausted = 0;   // accepts that failed for want of descriptors (or kernel memory)
    /** @var resource|null */
    public $spare = null;
    public int $memory_budget = PHP_INT_MAX;
    public int $lean_above = PHP_INT_MAX;

    public function __construct(public int $delay_ms = 0)
    {
        $limit = http_bytes((string) ini_get('memory_limit'));
        if ($limit > 0) {
            $this->memory_budget = intdiv($limit * 4, 5);
            $this->lean_above = intdiv($limit, 2);
        }
        $this->spare = @fopen('/dev/null', 'r') ?: null;
    }
}

/* memory_limit's notation ("128M") in bytes; -1 for none. */
function http_bytes(string $value): int
{
    $n = (int) $value;
    return match (strtolower(substr(trim($value), -1))) {
        'g' => $n << 30, 'm' => $n << 20, 'k' => $n << 10, default => $n,
    };
}

/* One connection: read what comes, answer every complete request, until either side closes. */
function http_connection($conn, ?HttpServer $server = null): void
{
    $id = null;
    if ($server !== null) {
        $id = $server->next++;
        $server->open[$id] = current_coroutine();
    }
    $buffer = '';
    $close = false;
    $answered = false;
    try {
        while (!$close) {
            if ($id !== null && $answered && $buffer === '') {
                $server->idle[$id] = hrtime(true); // a keep-alive connection waits for its next request
            }
            $lean = $server !== null && memory_get_usage() > $server->lean_above;
            $chunk = fread($conn, $lean ? LEAN_READ_CHUNK : READ_CHUNK);
            if ($id !== null) {
                unset($server->idle[$id]);
            }
            if ($chunk === false || $chunk === '') {
                break; // the client closed (or the read failed or timed out)
            }
            $buffer .= $chunk;
            $out = http_answer($buffer, $close);
            if ($out === '') {
                continue;
            }
            if ($server !== null && $server->delay_ms > 0) {
                delay($server->delay_ms);
            }
            if (fwrite($conn, $out) !== strlen($out)) {
                break;
            }
            $answered = true;
        }
    } finally {
        if ($id !== null) {
            unset($server->open[$id], $server->idle[$id]);
        }
        fclose($conn);
    }
}

/* A connection the server will not serve: 503 if the socket takes it at once, then closed. What
 * the client already sent is read first (without waiting): closing over unread data resets the
 * connection, and the client might lose the 503. */
function http_refuse($conn, HttpServer $server): void
{
    stream_set_blocking($conn, false);
    @fread($conn, 8192);
    @fwrite($conn, SERVICE_UNAVAILABLE);
    fclose($conn);
    $server->refused++;
}

/* Closes keep-alive connections idle for over SHED_IDLE_AFTER_NS, oldest first: cancelled in their
 * fread(), they close in their `finally`. A connection that has not had an answer yet is never
 * taken for idle (its read timeout, default_socket_timeout, bounds it). */
function http_shed_idle(HttpServer $server): void
{
    $now = hrtime(true);
    $n = 0;
    foreach ($server->idle as $id => $since) {
        if ($n >= SHED_IDLE_BATCH || $now - $since < SHED_IDLE_AFTER_NS) {
            break;
        }
        unset($server->idle[$id]);
        $server->open[$id]->cancel();
        $n++;
    }
    $server->shed += $n;
}

/* Out of descriptors: the connections waiting in the backlog are refused with the spare one
 * (each accepted, answered 503, closed), then the spare is taken back. */
function http_refuse_pending($listener, HttpServer $server): void
{
    if ($server->spare === null) {
        $server->spare = @fopen('/dev/null', 'r') ?: null;
        return;
    }
    fclose($server->spare);
    $server->spare = null;
    for ($i = 0; $i < REFUSE_BATCH; $i++) {
        $conn = @stream_socket_accept($listener, 0);
        if ($conn === false) {
            break;
        }
        http_refuse($conn, $server);
    }
    $server->spare = @fopen('/dev/null', 'r') ?: null;
}

/* stream_socket_accept() failed. Out of descriptors or kernel memory: make room (the runtime has
 * backed off before reporting it, so this is not a spin). Anything else (a connection reset
 * before it was accepted): a millisecond's pause, in case it lasts. */
function http_accept_failed($listener, HttpServer $server): void
{
    $message = error_get_last()['message'] ?? '';
    error_clear_last();
    if (preg_match('/Too many open files|Cannot allocate memory|No buffer space/', $message)) {
        $server->exhausted++;
        http_shed_idle($server);
        http_refuse_pending($listener, $server);
        return;
    }
    delay(1);
}

/* Accepts until $max_connections were served (null: forever). */
function http_serve($listener, ?int $max_connections = null, ?HttpServer $server = null): void
{
    $server ??= new HttpServer();
    $burst = 0;
    for ($served = 0; $max_connections === null || $served < $max_connections;) {
        $conn = @stream_socket_accept($listener, -1);
        if ($conn === false) {
            http_accept_failed($listener, $server);
            continue;
        }
        if (memory_get_usage() > $server->memory_budget) {
            http_refuse($conn, $server);
            http_shed_idle($server);
            continue;
        }
        $served++;
        spawn('http_connection', $conn, $server);
        if (++$burst >= ACCEPT_BURST) {
            $burst = 0;
            suspend(); // the new connections run first: memory_get_usage() then counts them
        }
    }
}

/* --stats: a line whenever the figures changed, every $ms. The growth per connection is counted
 * from the memory in use when the server started (the script, the listener). */
function http_stats(HttpServer $server, int $ms): void
{
    $base = memory_get_usage();
    $last = '';
    for (;;) {
        delay($ms);
        $open = count($server->open);
        $memory = memory_get_usage();
        $line = sprintf('stats: connections=%d idle=%d memory=%d KiB per_connection=%d B refused=%d shed=%d exhausted=%d',
            $open, count($server->idle), $memory >> 10, $open > 0 ? intdiv(max(0, $memory - $base), $open) : 0,
            $server->refused, $server->shed, $server->exhausted);
        if ($line !== $last) {
            echo $line, "\n";
            $last = $line;
        }
    }
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    $address = '127.0.0.1:8080';
    $stats = 0;
    $delay_ms = 0;
    $backlog = 1024;
    foreach (array_slice($argv, 1) as $arg) {
        if (preg_match('/^--stats(?:=(\d+))?$/', $arg, $m)) {
            $stats = (int) ($m[1] ?? 1000) ?: 1000;
        } elseif (preg_match('/^--delay-ms=(\d+)$/', $arg, $m)) {
            $delay_ms = (int) $m[1];
        } elseif (preg_match('/^--backlog=(\d+)$/', $arg, $m)) {
            $backlog = (int) $m[1];
        } elseif (!str_starts_with($arg, '--')) {
            $address = $arg;
        } else {
            fwrite(STDERR, "unknown option $arg\n");
            exit(2);
        }
    }
    $context = stream_context_create(['socket' => ['backlog' => $backlog, 'so_reuseport' => false]]);
    $listener = stream_socket_server("tcp://$address", $errno, $errstr,
        STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
    if ($listener === false) {
        fwrite(STDERR, "cannot listen on $address: $errstr\n");
        exit(1);
    }
    $server = new HttpServer($delay_ms);
    echo 'listening on ', stream_socket_get_name($listener, false), "\n";
    if ($stats > 0) {
        spawn('http_stats', $server, $stats);
    }
    http_serve($listener, null, $server);
}
