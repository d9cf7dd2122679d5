<?php
/*
 * The soak (docs/chaos.md, "The soak"): one process on ext-async runs a mixed workload for a given
 * time and checks that it leaves nothing behind.
 *
 *   php -n -d extension=modules/async.so [-d extension=pdo_mysql ...] tests/chaos/soak.php \
 *       [--seconds 120] [--report 10] [--seed N] [--warmup S] [--no-db] [--verbose]
 *   scripts/soak.sh [seconds]          (finds the module and the extensions, as run-phpt.sh does)
 *
 * The workload, all in this process:
 *   - an HTTP/1.1 server of its own (keep-alive, Content-Length bodies; routes /data, /md5,
 *     /sleep, /db), one coroutine per connection;
 *   - HTTP clients (raw sockets, PHP's http wrapper, curl when loaded), each request checked
 *     byte for byte, going directly or through one of two fault proxies (tests/chaos/proxy.c):
 *     "slow" picks per connection among latency, jitter, split or nothing (faults that must not
 *     cause an error), "harsh" among everything it has (resets, closes, half-closes, refusals,
 *     blackholes, bandwidth, latency...), and is restarted from time to time (restart-upstream);
 *   - a pooled PDO (PDO::ATTR_POOL_*) on a private MariaDB (tests/inc/servers.inc): prepared
 *     selects, SLEEP()s, transactions that commit or roll back; the server's /db route uses it too;
 *   - channel rounds: producers and consumers on an Async\Channel, every value accounted for;
 *   - a "monkey" that cancels random operations (Coroutine::cancel()), and Async\timeout()s on
 *     a share of them.
 * Every operation runs in a coroutine of its own. Every random choice comes from the seed (one
 * generator per worker, so a worker's choices do not depend on the interleaving; the interleaving
 * itself is the machine's).
 *
 * Every --report seconds it prints RSS, PHP's heap, descriptors, coroutines, operations and errors
 * by class. It fails (exit 1) on:
 *   - an error class not in EXPECTED below (a reset on a direct connection, a corrupt body, a lost
 *     channel value, a PDOException, a warning nobody asked for...);
 *   - RSS growth past max(RSS_BOUND_MIB, RSS_BOUND_PCT %) between the end of the warm-up and the
 *     end of the load (the heap likewise with HEAP_BOUND_*);
 *   - descriptors or coroutines that do not come back to their baseline (taken before the load
 *     started) once the load is stopped;
 *   - the database's books not balancing (a transaction half applied, or more or fewer committed
 *     than the clients know of), or a worker that does not stop.
 * Last line: "soak: <s> s, ops N, errors {class: n}, RSS start/end/peak A/B/C MiB, fds peak N, PASS|FAIL".
 */
declare(strict_types=1);

require __DIR__ . '/proxy.inc';
require __DIR__ . '/../inc/servers.inc';

use function Async\{spawn, await, delay, timeout, get_coroutines, current_coroutine, suspend};
use Async\{Coroutine, Channel, AsyncCancellation, OperationCanceledException, TimeoutException, ChannelException};
use Random\Randomizer;
use Random\Engine\Mt19937;

/* The error classes the soak causes itself, or the harsh proxy injects. Anything else fails it. */
const EXPECTED = [
    'cancel' => 'an operation the monkey cancelled (Coroutine::cancel())',
    'timeout' => 'an Async\timeout() of the soak fired (on an operation, a channel send or receive)',
    'harsh.connect' => 'connecting through the harsh proxy failed (restart-upstream with unlisten)',
    'harsh.reset' => 'a connection through the harsh proxy was reset (reset_after, refuse, restart-upstream)',
    'harsh.eof' => 'EOF before the response was complete, through the harsh proxy (close_after, half_close_after)',
    'harsh.stall' => 'no byte for the read timeout, through the harsh proxy (blackhole, bw, latency)',
    'server.peer-gone' => 'the server\'s peer went away in the middle of a request or a response (a client cancelled or timed out, the harsh proxy)',
];
/* Bugs the soak found, each with a regression test; --avoid NAME,... steers around one so that a
 * run can look for others while it is open (SOAK_AVOID of scripts/soak.sh), or bisect an older
 * build once it is fixed. */
const KNOWN_BUGS = [
    'pdo-stmt-cancel' => 'a pooled PDO connection whose PDOStatement::execute() was cancelled went back to the pool and the'
        . ' next caller got 2006; with emulated prepares a dead connection then stayed for good (fixed: eace437;'
        . ' tests/chaos/010-*, 011-*); avoided: the operations the monkey and the timeouts may cancel use'
        . ' PDO::query()/exec(), no statements',
    'mysql-connect-cancel' => 'a coroutine cancelled while a MySQL connection is being made for it (new PDO, or the pool'
        . ' connecting for a call) ends with a PDOException ([2002] Operation canceled, [2006] MySQL server has gone'
        . ' away) that has the cancellation only as its previous, or not at all (fixed: the cancellation goes on top,'
        . ' hooks/cancel_on_top.c; tests/chaos/012-*, tests/db/007-*); tolerated: such an'
        . ' outcome of a cancelled operation is counted as known.mysql-connect-cancel',
];
/* The server's read timeout (s); the wait for the baseline after the load is longer than it. */
const SERVER_READ_TIMEOUT = 30;
const RSS_BOUND_MIB = 8;
const RSS_BOUND_PCT = 10;
const HEAP_BOUND_MIB = 4;
const HEAP_BOUND_PCT = 10;
const HTTP_WORKERS = 10;
const DB_WORKERS = 4;
const READ_TIMEOUT = ['direct' => 10, 'slow' => 10, 'harsh' => 3];
const HARSH_TIMEOUT = 8000;

final class NetError extends RuntimeException
{
    public function __construct(public readonly string $kind, string $message)
    {
        parent::__construct($message);
    }
}

/* Everything the workers share. */
final class S
{
    public static bool $stop = false;
    public static int $seed = 1;
    public static bool $verbose = false;
    /** area => completed operations */
    public static array $ops = ['http' => 0, 'db' => 0, 'chan' => 0];
    /** class => count; class => the first message seen */
    public static array $errors = [];
    public static array $samples = [];
    /** Operations the monkey may cancel: coroutine id => Coroutine; those it did cancel. */
    public static array $live = [];
    public static array $cancelled = [];
    public static array $timedOut = [];
    /** coroutine id => what the operation is doing now (for the messages) */
    public static array $step = [];
    /** id => peer name of the server's open connections */
    public static array $serverConns = [];
    public static ?PDO $pdo = null;
    public static string $dbRoot = '';
    public static bool $lockReported = false;
    public static array $tx = ['ok' => 0, 'unknown' => 0, 'rolledback' => 0];
    public static array $fail = [];
    public static string $direct = '';
    public static string $slow = '';
    public static string $harsh = '';
    public static bool $curl = false;
    public static bool $timeouts = true;
    /** Known bugs to steer around (--avoid), each with a reproducer: see KNOWN_BUGS. */
    public static array $avoid = [];
}

function rng(int $stream): Randomizer
{
    return new Randomizer(new Mt19937((S::$seed * 1000003 + $stream) & 0x7fffffff));
}

/* Picks a key of $weights ([key => weight]). */
function pick(Randomizer $r, array $weights): string
{
    $t = $r->getInt(1, array_sum($weights));
    foreach ($weights as $k => $w) {
        if (($t -= $w) <= 0) {
            return (string) $k;
        }
    }
    return (string) array_key_last($weights);
}

/* Expected: listed in EXPECTED, or the outcome of a known bug the run was told to tolerate. */
function expected(string $class): bool
{
    return isset(EXPECTED[$class]) || (str_starts_with($class, 'known.') && (S::$avoid[substr($class, 6)] ?? false));
}

function error_class(string $class, string $message): void
{
    S::$errors[$class] = (S::$errors[$class] ?? 0) + 1;
    if (!isset(S::$samples[$class])) {
        S::$samples[$class] = $message;
        if (!expected($class)) {
            fprintf(STDOUT, "soak: unexpected error class %s: %s\n", $class, $message);
        }
    }
    if (S::$verbose) {
        fprintf(STDOUT, "soak: error %s: %s\n", $class, $message);
    }
}

/* Warnings and notices nobody suppressed are errors of their own class. */
set_error_handler(function (int $no, string $msg, string $file, int $line): bool {
    if (!(error_reporting() & $no)) {
        return true;
    }
    error_class('php.warning', "$msg at " . basename($file) . ":$line");
    return true;
});

/* ------------------------------------------------------------------------------ measurements */

function rss_bytes(): int
{
    $status = (string) @file_get_contents('/proc/self/status');
    return preg_match('/^VmRSS:\s+(\d+) kB/m', $status, $m) ? (int) $m[1] * 1024 : 0;
}

function fd_count(): int
{
    // scandir()'s own descriptor is counted in every measurement alike.
    return count(scandir('/proc/self/fd')) - 2;
}

function coroutine_count(): int
{
    return count(get_coroutines());
}

function mib(int $bytes): string
{
    return sprintf('%.1f', $bytes / 1048576);
}

function classes(array $errors): string
{
    ksort($errors);
    $parts = [];
    foreach ($errors as $k => $n) {
        $parts[] = "$k: $n";
    }
    return '{' . implode(', ', $parts) . '}';
}

/* ------------------------------------------------------------------------------ the HTTP server */

/* The body /data?n=N&k=K answers: N bytes that depend on K only. */
function data_body(int $n, int $k): string
{
    $unit = md5("soak-$k") . sha1("soak-$k");
    return substr(str_repeat($unit, intdiv($n, strlen($unit)) + 1), 0, $n);
}

function http_response(int $status, string $body, bool $close): string
{
    $reason = [200 => 'OK', 400 => 'Bad Request', 404 => 'Not Found', 500 => 'Internal Server Error'][$status];
    return "HTTP/1.1 $status $reason\r\nContent-Type: application/octet-stream\r\nContent-Length: " . strlen($body)
        . "\r\n" . ($close ? "Connection: close\r\n" : '') . "\r\n" . $body;
}

/* One server connection: requests one after the other (keep-alive) until the client closes.
 * The server is never cancelled by the monkey; what its peers do to it is 'server.peer-gone'. */
function server_conn($c, string $peer): void
{
    $id = current_coroutine()->getId();
    S::$serverConns[$id] = $peer;
    $buf = '';
    stream_set_timeout($c, SERVER_READ_TIMEOUT);
    try {
        while (true) {
            while (($end = strpos($buf, "\r\n\r\n")) === false) {
                if (strlen($buf) > 16384) {
                    error_class('server.bad-request', 'a request head over 16 KiB: ' . substr($buf, 0, 80));
                    return;
                }
                $chunk = @fread($c, 65536);
                if ($chunk === false || $chunk === '') {
                    if (stream_get_meta_data($c)['timed_out']) {
                        return;              // an idle keep-alive connection
                    }
                    if ($buf !== '' || $chunk === false) {
                        error_class('server.peer-gone', $chunk === false ? 'read failed' : 'EOF inside a request head');
                    }
                    return;
                }
                $buf .= $chunk;
            }
            $head = substr($buf, 0, $end);
            $buf = substr($buf, $end + 4);
            $lines = explode("\r\n", $head);
            if (!preg_match('#^(GET|POST) (/[a-z0-9]*)(?:\?(\S*))? HTTP/1\.([01])$#', $lines[0], $m)) {
                error_class('server.bad-request', 'request line ' . json_encode(substr($lines[0], 0, 80)));
                @fwrite($c, http_response(400, "ERR bad request\n", true));
                return;
            }
            [, $method, $path] = $m;
            parse_str($m[3] ?? '', $q);
            $length = 0;
            $close = $m[4] === '0';
            foreach (array_slice($lines, 1) as $h) {
                [$name, $value] = array_map('trim', explode(':', $h, 2)) + [1 => ''];
                $name = strtolower($name);
                if ($name === 'content-length') {
                    $length = (int) $value;
                } elseif ($name === 'connection') {
                    $close = strtolower($value) === 'close';
                }
            }
            while (strlen($buf) < $length) {
                $chunk = @fread($c, min(65536, $length - strlen($buf)));
                if ($chunk === false || $chunk === '') {
                    error_class('server.peer-gone', 'EOF or error inside a request body');
                    return;
                }
                $buf .= $chunk;
            }
            $body = substr($buf, 0, $length);
            $buf = substr($buf, $length);
            $status = 200;
            switch ("$method $path") {
                case 'GET /data':
                    $out = data_body((int) ($q['n'] ?? 0), (int) ($q['k'] ?? 0));
                    break;
                case 'POST /md5':
                    $out = md5($body);
                    break;
                case 'GET /sleep':
                    delay((int) ($q['ms'] ?? 1));
                    $out = 'slept ' . (int) ($q['ms'] ?? 1);
                    break;
                case 'GET /db':
                    try {
                        $st = S::$pdo->prepare('SELECT ? + 1');
                        $st->execute([(int) ($q['k'] ?? 0)]);
                        $out = (string) $st->fetchColumn();
                        $st = null;
                    } catch (Throwable $e) {
                        error_class('server.db', get_class($e) . ': ' . $e->getMessage());
                        [$status, $out] = [500, 'ERR ' . $e->getMessage()];
                    }
                    break;
                default:
                    [$status, $out] = [404, "ERR no route $method $path\n"];
            }
            $resp = http_response($status, $out, $close);
            for ($off = 0; $off < strlen($resp); $off += $w) {
                $w = @fwrite($c, substr($resp, $off, 262144));
                if ($w === false || $w === 0) {
                    error_class('server.peer-gone', 'write failed');
                    return;
                }
            }
            if ($close) {
                return;
            }
        }
    } finally {
        fclose($c);
        unset(S::$serverConns[$id]);
    }
}

/* ------------------------------------------------------------------------------ HTTP clients */

/* A request: [method, target, body to send, the body the response must have]. */
function make_request(Randomizer $r): array
{
    switch (pick($r, ['data' => 50, 'md5' => 25, 'sleep' => 15, 'db' => S::$pdo ? 10 : 0])) {
        case 'data':
            $n = pick($r, ['s' => 70, 'm' => 25, 'l' => 5]);
            $n = $n === 's' ? $r->getInt(0, 2000) : ($n === 'm' ? $r->getInt(2000, 65536) : $r->getInt(65536, 400000));
            $k = $r->getInt(1, 1 << 30);
            return ['GET', "/data?n=$n&k=$k", '', data_body($n, $k)];
        case 'md5':
            $n = $r->getInt(0, 1) ? $r->getInt(0, 4000) : $r->getInt(4000, 300000);
            $body = $n > 0 ? $r->getBytes($n) : '';
            return ['POST', '/md5', $body, md5($body)];
        case 'sleep':
            $ms = $r->getInt(0, 50);
            return ['GET', "/sleep?ms=$ms", '', "slept $ms"];
        default:
            $k = $r->getInt(1, 1000000);
            return ['GET', "/db?k=$k", '', (string) ($k + 1)];
    }
}

/* Compares a response body: a prefix of what was expected is a truncation (EOF), anything else is
 * corruption. */
function check_body(string $got, string $want, string $what): void
{
    if ($got === $want) {
        return;
    }
    if (strlen($got) < strlen($want) && str_starts_with($want, $got)) {
        throw new NetError('eof', "$what: " . strlen($got) . ' of ' . strlen($want) . ' bytes');
    }
    if (str_starts_with($got, 'ERR ')) {
        throw new NetError('status', "$what: the server said " . substr($got, 0, 200));
    }
    throw new NetError('corrupt', "$what: " . strlen($got) . ' bytes differ from the ' . strlen($want) . ' expected'
        . ' (first ' . json_encode(substr($got, 0, 40)) . ')');
}

function io_fail($c, string $what, bool $write): NetError
{
    if (!$write && stream_get_meta_data($c)['timed_out']) {
        return new NetError('stall', "$what: read timed out");
    }
    $err = error_get_last()['message'] ?? '';
    return new NetError('reset', "$what failed" . ($err !== '' ? ": $err" : ''));
}

/* Keep-alive requests on one socket, read and checked by hand. */
function client_raw(Randomizer $r, string $via, string $addr): void
{
    $c = @stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    if ($c === false) {
        throw new NetError($errno === 104 ? 'reset' : 'connect', "connect to $addr: [$errno] $errstr");
    }
    try {
        stream_set_timeout($c, READ_TIMEOUT[$via]);
        $n = $r->getInt(1, 4);
        for ($i = 0; $i < $n; $i++) {
            [$method, $target, $body, $want] = make_request($r);
            $last = $i === $n - 1;
            $req = "$method $target HTTP/1.1\r\nHost: soak\r\n" . ($method === 'POST' ? 'Content-Length: ' . strlen($body) . "\r\n" : '')
                . ($last ? "Connection: close\r\n" : '') . "\r\n" . $body;
            for ($off = 0; $off < strlen($req); $off += $w) {
                error_clear_last();
                $w = @fwrite($c, substr($req, $off));
                if ($w === false || $w === 0) {
                    throw io_fail($c, "write of $method $target", true);
                }
            }
            $resp = '';
            while (($end = strpos($resp, "\r\n\r\n")) === false) {
                error_clear_last();
                $chunk = @fread($c, 65536);
                if ($chunk === false || $chunk === '') {
                    if ($chunk === '' && !stream_get_meta_data($c)['timed_out']) {
                        throw new NetError('eof', "$method $target: EOF after " . strlen($resp) . ' bytes of the head');
                    }
                    throw io_fail($c, "$method $target (head)", false);
                }
                $resp .= $chunk;
            }
            if (!preg_match('#^HTTP/1\.1 (\d+) [^\r\n]*\r\n#', $resp, $m) || !preg_match('#\r\ncontent-length: *(\d+)\r\n#i', substr($resp, 0, $end + 2), $len)) {
                throw new NetError('corrupt', "$method $target: a bad response head " . json_encode(substr($resp, 0, 120)));
            }
            $got = substr($resp, $end + 4);
            $length = (int) $len[1];
            while (strlen($got) < $length) {
                error_clear_last();
                $chunk = @fread($c, min(65536, $length - strlen($got)));
                if ($chunk === false || $chunk === '') {
                    if ($chunk === '' && !stream_get_meta_data($c)['timed_out']) {
                        break;
                    }
                    throw io_fail($c, "$method $target (body)", false);
                }
                $got .= $chunk;
            }
            if (strlen($got) > $length) {
                throw new NetError('corrupt', "$method $target: " . (strlen($got) - $length) . ' bytes after the response');
            }
            check_body($got, $want, "$method $target");
            S::$ops['http']++;
        }
    } finally {
        fclose($c);
    }
}

/* One request through PHP's http wrapper (a connection of its own, closed after it). */
function client_wrapper(Randomizer $r, string $via, string $addr): void
{
    [$method, $target, $body, $want] = make_request($r);
    $ctx = stream_context_create(['http' => ['method' => $method, 'content' => $body, 'timeout' => READ_TIMEOUT[$via],
        'ignore_errors' => true, 'protocol_version' => 1.1, 'header' => "Connection: close\r\nContent-Type: application/octet-stream\r\n"]]);
    error_clear_last();
    $got = @file_get_contents("http://$addr$target", false, $ctx);
    if ($got === false) {
        $err = error_get_last()['message'] ?? 'no message';
        $kind = match (true) {
            str_contains($err, 'timed out') => 'stall',
            str_contains($err, 'refused') => 'connect',
            str_contains($err, 'reset') => 'reset',
            default => 'eof',
        };
        throw new NetError($kind, "wrapper $method $target: $err");
    }
    check_body($got, $want, "wrapper $method $target");
    S::$ops['http']++;
}

/* One request with curl. */
function client_curl(Randomizer $r, string $via, string $addr): void
{
    [$method, $target, $body, $want] = make_request($r);
    $h = curl_init("http://$addr$target");
    curl_setopt_array($h, [CURLOPT_RETURNTRANSFER => true, CURLOPT_CONNECTTIMEOUT_MS => 5000,
        CURLOPT_LOW_SPEED_LIMIT => 1, CURLOPT_LOW_SPEED_TIME => READ_TIMEOUT[$via], CURLOPT_HTTPHEADER => ['Expect:']]);
    if ($method === 'POST') {
        curl_setopt($h, CURLOPT_POSTFIELDS, $body);
    }
    $got = curl_exec($h);
    $no = curl_errno($h);
    $err = curl_error($h);
    $code = curl_getinfo($h, CURLINFO_RESPONSE_CODE);
    unset($h);
    if ($got === false || $no !== 0) {
        $kind = match ($no) {
            7 => 'connect',
            28 => 'stall',
            55, 56 => 'reset',
            18, 52 => 'eof',
            default => "curl$no",
        };
        throw new NetError($kind, "curl $method $target: [$no] $err");
    }
    check_body((string) $got, $want, "curl $method $target (HTTP $code)");
    S::$ops['http']++;
}

/* ------------------------------------------------------------------------------ operations */

/* Runs $fn in a coroutine of its own that the monkey may cancel, under an Async\timeout() of
 * $timeoutMs when > 0, and puts what went wrong in its class; true when it completed. */
function run_op(string $via, int $timeoutMs, Closure $fn): bool
{
    $co = spawn($fn);
    $id = $co->getId();
    S::$live[$id] = $co;
    try {
        if ($timeoutMs > 0) {
            try {
                await($co, timeout($timeoutMs));
                return true;
            } catch (OperationCanceledException $e) {
                if (!$e->getPrevious() instanceof TimeoutException) {
                    throw $e;
                }
                if ($co->isCompleted()) {
                    // The timer and the end of the operation came in the same turn of the loop.
                    error_class('timeout', "after {$timeoutMs} ms, as the operation ended");
                    return false;
                }
                S::$timedOut[$id] = true;
                $co->cancel();
                // Its cleanup (finally blocks) runs before we go on; a cancelled operation that does
                // not end is a hang.
                try {
                    await($co, timeout(30000));
                } catch (OperationCanceledException $e2) {
                    if ($e2->getPrevious() instanceof TimeoutException && !$co->isCompleted()) {
                        error_class('hang', 'an operation cancelled after its timeout did not end within 30 s, suspended at '
                            . $co->getSuspendLocation());
                        return false;
                    }
                } catch (Throwable $e2) {
                    if (!$e2 instanceof AsyncCancellation) {
                        classify($e2, $id, $via);
                        return false;
                    }
                }
                error_class('timeout', "after {$timeoutMs} ms");
                return false;
            }
        }
        await($co);
        return true;
    } catch (Throwable $e) {
        classify($e, $id, $via, $co);
        return false;
    } finally {
        unset(S::$live[$id], S::$cancelled[$id], S::$timedOut[$id], S::$step[$id]);
    }
}

/* What the current operation is doing, for the messages of its errors. */
function step(string $what): void
{
    S::$step[current_coroutine()->getId()] = $what;
}

function classify(Throwable $e, int $id, string $via, ?Coroutine $co = null): void
{
    $msg = get_class($e) . ': ' . $e->getMessage();
    for ($p = $e->getPrevious(); $p !== null; $p = $p->getPrevious()) {
        $msg .= ' (previous ' . get_class($p) . ': ' . $p->getMessage() . ')';
    }
    if (isset(S::$step[$id])) {
        $msg .= ' [during ' . S::$step[$id] . ']';
    }
    if ($co !== null) {
        $msg .= $co->isCompleted() ? ' [the operation had completed' . ($co->isCancelled() ? ', cancelled' : '') . ']' : ' [the operation was running]';
    }
    if ($e instanceof NetError) {
        error_class("$via.{$e->kind}", $e->getMessage());
    } elseif ($e instanceof AsyncCancellation) {
        if (isset(S::$cancelled[$id]) || isset(S::$timedOut[$id])) {
            error_class(isset(S::$timedOut[$id]) ? 'timeout' : 'cancel', $msg);
        } else {
            error_class('cancellation-from-nowhere', "$msg at " . basename($e->getFile()) . ':' . $e->getLine());
        }
    } elseif (isset(S::$cancelled[$id]) || isset(S::$timedOut[$id])) {
        // Cancelled, but what came out is not the cancellation.
        if (S::$avoid['mysql-connect-cancel'] && $e instanceof PDOException && preg_match('/\b(2002|2006)\b/', $e->getMessage())) {
            error_class('known.mysql-connect-cancel', $msg);
            return;
        }
        error_class('cancel-became:' . get_class($e), $msg . ' at ' . basename($e->getFile()) . ':' . $e->getLine());
    } elseif ($e instanceof PDOException) {
        if (($e->errorInfo[1] ?? 0) === 1205) {
            db_lock_report();
        }
        error_class('db.' . ($e->errorInfo[1] ?? $e->getCode()), $msg);
    } else {
        error_class('exception:' . get_class($e), $msg . ' at ' . basename($e->getFile()) . ':' . $e->getLine());
    }
}

function maybe_timeout(Randomizer $r, int $pct, int $min, int $max): int
{
    return $r->getInt(1, 100) <= $pct && S::$timeouts ? $r->getInt($min, $max) : 0;
}

function http_worker(int $n): void
{
    $r = rng(100 + $n);
    while (!S::$stop) {
        $via = pick($r, ['direct' => 30, 'slow' => 40, 'harsh' => 30]);
        $addr = ['direct' => S::$direct, 'slow' => S::$slow, 'harsh' => S::$harsh][$via];
        $how = pick($r, ['raw' => 60, 'wrapper' => 20, 'curl' => S::$curl ? 20 : 0]);
        $seed = $r->getInt(0, PHP_INT_MAX);
        $timeout = maybe_timeout($r, 30, 20, 1500);
        if ($via === 'harsh' && $timeout === 0) {
            // bw=1024 keeps bytes coming (no read times out): bound the operation.
            $timeout = HARSH_TIMEOUT;
        }
        run_op($via, $timeout, function () use ($how, $via, $addr, $seed) {
            $or = new Randomizer(new Mt19937($seed & 0x7fffffff));
            match ($how) {
                'raw' => client_raw($or, $via, $addr),
                'wrapper' => client_wrapper($or, $via, $addr),
                'curl' => client_curl($or, $via, $addr),
            };
        });
        if ($r->getInt(1, 10) === 1) {
            delay($r->getInt(0, 20));
        }
    }
}

/* ------------------------------------------------------------------------------ the database */

function db_setup(array $db): void
{
    $root = "mysql:host=127.0.0.1;port={$db['port']}";
    S::$dbRoot = $root;
    $plain = new PDO($root, 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $plain->exec('CREATE DATABASE soak');
    $plain->exec('CREATE TABLE soak.log (id INT AUTO_INCREMENT PRIMARY KEY, w INT NOT NULL, v INT NOT NULL) ENGINE=InnoDB');
    $plain->exec('CREATE TABLE soak.counter (id INT PRIMARY KEY, n INT NOT NULL) ENGINE=InnoDB');
    $plain->exec('INSERT INTO soak.counter VALUES (1, 0), (2, 0), (3, 0), (4, 0)');
    $plain->exec('CREATE TABLE soak.kv (k INT PRIMARY KEY, v VARCHAR(64) NOT NULL) ENGINE=InnoDB');
    $st = $plain->prepare('INSERT INTO soak.kv VALUES (?, ?)');
    for ($k = 1; $k <= 100; $k++) {
        $st->execute([$k, md5("kv$k")]);
    }
    S::$pdo = new PDO("$root;dbname=soak", 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MIN => 2, PDO::ATTR_POOL_MAX => 6,
        PDO::ATTR_POOL_STMT_CACHE_SIZE => 16, PDO::ATTR_EMULATE_PREPARES => false,
        // No transaction of the workload holds a row for more than a fraction of a second: a
        // lock held for 10 s is a connection nobody uses any more, reported while it is there.
        // (Pdo\Mysql's constant from 8.4 on: 8.5 deprecates PDO's)
        constant(PHP_VERSION_ID >= 80400 ? 'Pdo\Mysql::ATTR_INIT_COMMAND' : 'PDO::MYSQL_ATTR_INIT_COMMAND')
            => 'SET SESSION innodb_lock_wait_timeout = 10']);
}

function db_worker(int $n): void
{
    $r = rng(200 + $n);
    $pdo = S::$pdo;
    while (!S::$stop) {
        $kind = pick($r, ['select' => 40, 'sleep' => 15, 'tx' => 30, 'rollback' => 15]);
        $a = $r->getInt(1, 100);
        $ms = $r->getInt(1, 40);
        $row = $r->getInt(1, 4);
        run_op('db', maybe_timeout($r, 25, 5, 300), function () use ($pdo, $kind, $a, $ms, $row, $n) {
            switch ($kind) {
                case 'select':
                    step('select');
                    if (S::$avoid['pdo-stmt-cancel']) {
                        $v = $pdo->query("SELECT v FROM kv WHERE k = $a")->fetchColumn();
                    } else {
                        $st = $pdo->prepare('SELECT v FROM kv WHERE k = ?');
                        $st->execute([$a]);
                        $v = $st->fetchColumn();
                        $st = null;
                    }
                    if ($v !== md5("kv$a")) {
                        throw new RuntimeException("kv $a: " . var_export($v, true));
                    }
                    break;
                case 'sleep':
                    step('sleep');
                    $v = $pdo->query(sprintf('SELECT SLEEP(%.3f), %d', $ms / 1000, $a))->fetch(PDO::FETCH_NUM);
                    if ((int) $v[1] !== $a) {
                        throw new RuntimeException("SLEEP: got " . json_encode($v));
                    }
                    break;
                case 'tx':
                case 'rollback':
                    step("$kind: begin");
                    $pdo->beginTransaction();
                    step("$kind: insert");
                    if (S::$avoid['pdo-stmt-cancel']) {
                        $pdo->exec("INSERT INTO log (w, v) VALUES ($n, $a)");
                    } else {
                        $pdo->prepare('INSERT INTO log (w, v) VALUES (?, ?)')->execute([$n, $a]);
                    }
                    step("$kind: update");
                    $pdo->exec("UPDATE counter SET n = n + 1 WHERE id = $row");
                    if ($kind === 'rollback') {
                        step("$kind: rollBack");
                        $pdo->rollBack();
                        S::$tx['rolledback']++;
                        break;
                    }
                    S::$tx['unknown']++;
                    step("$kind: commit");
                    $pdo->commit();
                    S::$tx['unknown']--;
                    S::$tx['ok']++;
                    break;
            }
            S::$ops['db']++;
        });
    }
}

/* A lock wait timed out: who held the lock, once (the server's transactions and sessions, and the
 * pool's own view), from a connection of its own. */
function db_lock_report(): void
{
    if (S::$lockReported || S::$dbRoot === '') {
        return;
    }
    S::$lockReported = true;
    try {
        $plain = new PDO(S::$dbRoot, 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        echo "soak: lock wait timeout; the server's transactions:\n";
        foreach ($plain->query('SELECT trx_mysql_thread_id, trx_state, trx_started, trx_rows_locked, trx_query'
            . ' FROM information_schema.innodb_trx')->fetchAll(PDO::FETCH_ASSOC) as $t) {
            echo '  ', json_encode($t), "\n";
        }
        echo "soak: its sessions:\n";
        foreach ($plain->query('SHOW FULL PROCESSLIST')->fetchAll(PDO::FETCH_ASSOC) as $p) {
            echo '  ', json_encode($p), "\n";
        }
        $pool = S::$pdo?->getPool();
        if ($pool !== null) {
            printf("soak: the pool: %d idle, %d active\n", $pool->idleCount(), $pool->activeCount());
        }
    } catch (Throwable $e) {
        echo 'soak: the lock report failed: ', get_class($e), ': ', $e->getMessage(), "\n";
    }
}

/* The books: every transaction entirely there or entirely not, and as many as the clients know of. */
function db_check(): void
{
    if (S::$pdo === null) {
        return;
    }
    $check = spawn(function () {
        $log = (int) S::$pdo->query('SELECT COUNT(*) FROM log')->fetchColumn();
        $sum = (int) S::$pdo->query('SELECT SUM(n) FROM counter')->fetchColumn();
        return [$log, $sum];
    });
    try {
        [$log, $sum] = await($check, timeout(30000));
    } catch (Throwable $e) {
        S::$fail[] = 'the database check failed: ' . get_class($e) . ': ' . $e->getMessage();
        return;
    }
    $ok = S::$tx['ok'];
    $unknown = S::$tx['unknown'];
    printf("soak: database: %d transactions committed, %d with the commit interrupted, %d rolled back; %d log rows, counters %d\n",
        $ok, $unknown, S::$tx['rolledback'], $log, $sum);
    if ($log !== $sum) {
        S::$fail[] = "database: $log log rows but the counters say $sum (a transaction half applied)";
    }
    if ($log < $ok || $log > $ok + $unknown) {
        S::$fail[] = "database: $log log rows, but $ok commits succeeded and $unknown were interrupted";
    }
}

/* ------------------------------------------------------------------------------ channels */

/* Sends $count values from $first; $sent: the values whose send() returned. */
function chan_produce(Channel $ch, int $first, int $count, int $seed, array &$sent): void
{
    $r = new Randomizer(new Mt19937($seed));
    for ($v = $first; $v < $first + $count && !S::$stop; $v++) {
        if ($r->getInt(1, 10) === 1) {
            try {
                $ch->send($v, timeout($r->getInt(1, 20)));
            } catch (OperationCanceledException $e) {
                if (!$e->getPrevious() instanceof TimeoutException) {
                    throw $e;
                }
                error_class('timeout', 'channel send');
                continue;
            }
        } else {
            $ch->send($v);
        }
        $sent[$v] = true;
        if ($r->getInt(1, 3) === 1) {
            $r->getInt(0, 3) ? delay($r->getInt(1, 3)) : suspend();
        }
    }
}

/* Receives until the channel is closed and empty ($got: what came, $dup: what came twice). */
function chan_consume(Channel $ch, int $seed, array &$got, array &$dup): void
{
    $r = new Randomizer(new Mt19937($seed));
    if ($r->getInt(0, 1)) {
        foreach ($ch as $v) {
            isset($got[$v]) ? $dup[$v] = true : $got[$v] = true;
            S::$ops['chan']++;
            if ($r->getInt(1, 8) === 1) {
                delay($r->getInt(0, 2));
            }
        }
        return;
    }
    while (true) {
        try {
            $v = $r->getInt(1, 10) === 1 ? $ch->recv(timeout($r->getInt(1, 20))) : $ch->recv();
        } catch (ChannelException $e) {
            return;      // closed and empty
        } catch (OperationCanceledException $e) {
            if (!$e->getPrevious() instanceof TimeoutException) {
                throw $e;
            }
            error_class('timeout', 'channel receive');
            continue;
        }
        isset($got[$v]) ? $dup[$v] = true : $got[$v] = true;
        S::$ops['chan']++;
    }
}

/* Rounds of producers and consumers on one channel; every value sent must be received once. */
function channel_worker(): void
{
    $r = rng(300);
    $round = 0;
    while (!S::$stop) {
        $round++;
        $ch = new Channel([0, 1, 4, 16][$r->getInt(0, 3)]);
        $sent = [];
        $got = [];
        $dup = [];
        $producers = [];
        $next = 0;
        for ($p = $r->getInt(2, 4); $p > 0; $p--) {
            $count = $r->getInt(50, 300);
            $first = $next;
            $next += $count;
            $ps = $r->getInt(0, PHP_INT_MAX) & 0x7fffffff;
            $producers[] = spawn(function () use ($ch, $first, $count, $ps, &$sent) {
                run_op('chan', 0, function () use ($ch, $first, $count, $ps, &$sent) {
                    chan_produce($ch, $first, $count, $ps, $sent);
                });
            });
        }
        $consumers = [];
        // (not an arrow function: those capture by value, and $got must be the round's)
        $consume = function (int $cs) use ($ch, &$got, &$dup) {
            return spawn(function () use ($ch, $cs, &$got, &$dup) {
                run_op('chan', 0, function () use ($ch, $cs, &$got, &$dup) {
                    chan_consume($ch, $cs, $got, $dup);
                });
            });
        };
        for ($c = $r->getInt(1, 3); $c > 0; $c--) {
            $consumers[] = $consume($r->getInt(0, PHP_INT_MAX) & 0x7fffffff);
        }
        // While producers run, at least one consumer lives (the monkey cancels them too).
        while (array_filter($producers, fn ($p) => !$p->isCompleted())) {
            if (!array_filter($consumers, fn ($c) => !$c->isCompleted())) {
                $consumers[] = $consume($r->getInt(0, PHP_INT_MAX) & 0x7fffffff);
            }
            delay(10);
        }
        $ch->close();
        if (!array_filter($consumers, fn ($c) => !$c->isCompleted()) && count($ch) > 0) {
            $consumers[] = $consume($r->getInt(0, PHP_INT_MAX) & 0x7fffffff);
        }
        foreach ($consumers as $c) {
            try {
                await($c, timeout(30000));
            } catch (Throwable $e) {
                error_class('chan.stuck', "round $round: a consumer did not end 30 s after close(): " . get_class($e));
            }
        }
        $lost = array_diff_key($sent, $got);
        $extra = array_diff_key($got, $sent);
        // A consumer the monkey cancelled after the close may leave values in the buffer.
        $left = [];
        while (count($ch) > 0) {
            try {
                $v = $ch->recv();
                $left[$v] = true;
            } catch (ChannelException) {
                break;
            }
        }
        $lost = array_diff_key($lost, $left);
        if ($lost) {
            error_class('chan.lost', "round $round: " . count($lost) . ' values sent but never received, e.g. ' . array_key_first($lost));
        }
        if ($extra) {
            error_class('chan.extra', "round $round: " . count($extra) . ' values received whose send failed, e.g. ' . array_key_first($extra));
        }
        if ($dup) {
            error_class('chan.duplicate', "round $round: " . count($dup) . ' values received twice');
        }
    }
}

/* ------------------------------------------------------------------------------ chaos */

/* Cancels a random live operation every 20..300 ms. */
function monkey(): void
{
    $r = rng(400);
    while (!S::$stop) {
        delay($r->getInt(20, 300));
        if (S::$live) {
            $ids = array_keys(S::$live);
            sort($ids);
            $id = $ids[$r->getInt(0, count($ids) - 1)];
            $co = S::$live[$id];
            if (!$co->isCompleted()) {
                S::$cancelled[$id] = true;
                $co->cancel();
            }
        }
    }
}

/* Restarts the harsh proxy's upstream every 10..40 s: every session through it is reset, and for
 * 50..800 ms new clients are refused, find no listener, or are blackholed. */
function conductor(ChaosProxy $harsh): void
{
    $r = rng(500);
    while (!S::$stop) {
        $wait = $r->getInt(10000, 40000);
        for ($t = 0; $t < $wait && !S::$stop; $t += 250) {
            delay(250);
        }
        if (S::$stop) {
            break;
        }
        $harsh->restartUpstream($r->getInt(50, 800), ['refuse', 'unlisten', 'blackhole'][$r->getInt(0, 2)]);
    }
}

/* ------------------------------------------------------------------------------ main */

$opt = ['seconds' => 120, 'report' => 10, 'seed' => null, 'warmup' => null, 'no-db' => false, 'verbose' => false,
    'http' => null, 'db' => null, 'chan' => null, 'monkey' => null, 'timeouts' => null, 'avoid' => ''];
for ($i = 1; $i < $argc; $i++) {
    if (!preg_match('/^--([a-z-]+)(?:=(.*))?$/', $argv[$i], $m) || !array_key_exists($m[1], $opt)) {
        fwrite(STDERR, "usage: soak.php [--seconds N] [--report S] [--seed N] [--warmup S] [--no-db] [--verbose]\n"
            . "                [--http WORKERS] [--db WORKERS] [--chan 0|1] [--monkey 0|1] [--timeouts 0|1]   (to look at one part)\n"
            . "                [--avoid " . implode(',', array_keys(KNOWN_BUGS)) . "]\n");
        exit(2);
    }
    $value = is_bool($opt[$m[1]]) ? true : ($m[2] ?? $argv[++$i] ?? '');
    $opt[$m[1]] = is_string($opt[$m[1]]) || is_bool($value) ? $value : (int) $value;
}
$seconds = max(5, $opt['seconds']);
$reportEvery = max(1, $opt['report']);
S::$seed = $opt['seed'] ?? random_int(1, 999999);
S::$verbose = $opt['verbose'];
S::$timeouts = (bool) ($opt['timeouts'] ?? 1);
S::$avoid = array_fill_keys(array_keys(KNOWN_BUGS), false);
foreach (array_filter(explode(',', $opt['avoid'])) as $name) {
    if (!isset(KNOWN_BUGS[$name])) {
        fwrite(STDERR, "--avoid: no known bug '$name' (" . implode(', ', array_keys(KNOWN_BUGS)) . ")\n");
        exit(2);
    }
    S::$avoid[$name] = true;
}
// Warm-up: 20% of the run, at least 10 s, at most 60 s (no more than half of a short run).
$warmup = $opt['warmup'] ?? (int) min(60, max(10, round($seconds * 0.2)));
$warmup = min($warmup, intdiv($seconds, 2));
S::$curl = extension_loaded('curl');

printf("soak: seed %d, %d s (warm-up %d s, report every %d s), PHP %s, curl %s\n", S::$seed, $seconds, $warmup,
    $reportEvery, PHP_VERSION, S::$curl ? 'yes' : 'no');
foreach (array_keys(array_filter(S::$avoid)) as $name) {
    echo "soak: avoiding the known bug $name: ", KNOWN_BUGS[$name], "\n";
}
if (($why = chaos_skip_reason()) !== '') {
    echo "soak: cannot run: $why\nsoak: 0 s, ops 0, errors {}, RSS start/end/peak 0/0/0 MiB, fds peak 0, FAIL\n";
    exit(1);
}

// Before the first spawn(): servers start with blocking PHP.
$dbWhy = $opt['no-db'] ? '--no-db' : servers_skip_reason('mariadb', ['pdo_mysql']);
if ($dbWhy === '') {
    $db = servers_start_mariadb();
    db_setup($db);
    printf("soak: MariaDB on 127.0.0.1:%d, a pooled PDO (min 2, max 6)\n", $db['port']);
} else {
    echo "soak: no database: $dbWhy\n";
}

$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
    stream_context_create(['socket' => ['backlog' => 512]]));
if ($server === false) {
    echo "soak: cannot listen: $errstr\n";
    exit(1);
}
S::$direct = stream_socket_get_name($server, false);
$slow = ChaosProxy::start(S::$direct, 'random=latency,jitter,split,none', S::$seed, ['--quiet']);
$harsh = ChaosProxy::start(S::$direct, 'random', S::$seed + 1, ['--quiet']);
S::$slow = $slow->addr;
S::$harsh = $harsh->addr;
printf("soak: server %s, slow proxy %s (random=latency,jitter,split,none), harsh proxy %s (random)\n", S::$direct, S::$slow, S::$harsh);

$acceptor = spawn(function () use ($server) {
    while (true) {
        $c = @stream_socket_accept($server, -1, $peer);
        if ($c === false) {
            error_class('server.accept', error_get_last()['message'] ?? 'accept failed');
            delay(10);
            continue;
        }
        spawn('server_conn', $c, (string) $peer);
    }
});
delay(10);
gc_collect_cycles();
$base = ['fds' => fd_count(), 'coroutines' => coroutine_count(), 'pool' => S::$pdo ? count(S::$pdo->getPool()) : 0];
printf("soak: baseline: %d descriptors, %d coroutines%s\n", $base['fds'], $base['coroutines'],
    S::$pdo ? ", {$base['pool']} pooled connections" : '');

$workers = [];
for ($i = 0; $i < ($opt['http'] ?? HTTP_WORKERS); $i++) {
    $workers["http worker $i"] = spawn('http_worker', $i);
}
if (S::$pdo) {
    for ($i = 0; $i < ($opt['db'] ?? DB_WORKERS); $i++) {
        $workers["db worker $i"] = spawn('db_worker', $i);
    }
}
if ($opt['chan'] ?? 1) {
    $workers['channel rounds'] = spawn('channel_worker');
}
if ($opt['monkey'] ?? 1) {
    $workers['monkey'] = spawn('monkey');
}
$workers['conductor'] = spawn('conductor', $harsh);

// The sampler: every second RSS, heap, descriptors, coroutines and the loop's lag; a line every
// $reportEvery seconds.
$t0 = hrtime(true);
$peak = ['rss' => 0, 'fds' => 0, 'coroutines' => 0, 'lag' => 0.0];
$start = null;
$last = null;
$samples = [];
for ($tick = 1; $tick <= $seconds; $tick++) {
    $due = $t0 + $tick * 1_000_000_000;
    $now = hrtime(true);
    if ($due > $now) {
        delay((int) ceil(($due - $now) / 1e6));
    }
    $lag = (hrtime(true) - $due) / 1e6;
    $s = ['t' => $tick, 'rss' => rss_bytes(), 'heap' => memory_get_usage(), 'fds' => fd_count(), 'coroutines' => coroutine_count()];
    $samples[] = $s;
    foreach (['rss', 'fds', 'coroutines'] as $k) {
        $peak[$k] = max($peak[$k], $s[$k]);
    }
    $peak['lag'] = max($peak['lag'], $lag);
    if ($tick === $warmup) {
        $start = $s;
        printf("soak: warm-up over at %d s: RSS %s MiB, heap %s MiB\n", $tick, mib($s['rss']), mib($s['heap']));
    }
    $last = $s;
    if ($tick % $reportEvery === 0 || $tick === $seconds) {
        printf("soak [%5d s] rss %s MiB, heap %s MiB, fds %d, coroutines %d, ops %d (http %d, db %d, chan %d), errors %s, lag max %d ms\n",
            $tick, mib($s['rss']), mib($s['heap']), $s['fds'], $s['coroutines'], array_sum(S::$ops), S::$ops['http'],
            S::$ops['db'], S::$ops['chan'], classes(S::$errors), $peak['lag']);
    }
}
$end = $last;

// Stop the load: every worker ends its operation and leaves.
S::$stop = true;
$stopT = hrtime(true);
foreach ($workers as $name => $w) {
    try {
        await($w, timeout(60000));
    } catch (OperationCanceledException $e) {
        if ($e->getPrevious() instanceof TimeoutException) {
            S::$fail[] = "$name did not stop within 60 s; it waits at " . $w->getSuspendLocation()
                . ' (' . implode(', ', $w->getAwaitingInfo()) . ')';
            $w->cancel();
            continue;
        }
        S::$fail[] = "$name ended with " . get_class($e) . ': ' . $e->getMessage();
    } catch (Throwable $e) {
        S::$fail[] = "$name ended with " . get_class($e) . ': ' . $e->getMessage() . ' at ' . basename($e->getFile()) . ':' . $e->getLine();
    }
}
printf("soak: load stopped in %.1f s\n", (hrtime(true) - $stopT) / 1e9);

db_check();

// Back to the baseline. The load is over, but a proxy may still hold sessions of it: bytes it took
// from a client that left are still trickling to the server under a bandwidth cap, or a blackhole
// swallowed the client's close. Every session of both proxies is reset now (both sides get a RST,
// as in a restart of the upstream), so the server's connections end through the reset path;
// the pool may keep more idle connections than at the start (each one a descriptor).
$slow->restartUpstream(0);
$harsh->restartUpstream(0);
$workers = null;
$w = null;
$deadline = microtime(true) + SERVER_READ_TIMEOUT + 10;
do {
    delay(100);
    gc_collect_cycles();
    $pool = S::$pdo ? count(S::$pdo->getPool()) : 0;
    $fds = fd_count();
    $cos = coroutine_count();
    $wantFds = $base['fds'] + ($pool - $base['pool']);
} while (($fds !== $wantFds || $cos !== $base['coroutines']) && microtime(true) < $deadline);
printf("soak: after the load: %d descriptors (baseline %d%s), %d coroutines (baseline %d)\n", $fds, $base['fds'],
    $pool !== $base['pool'] ? sprintf(' + %d pooled connections', $pool - $base['pool']) : '', $cos, $base['coroutines']);
if ($fds !== $wantFds) {
    $list = [];
    foreach (scandir('/proc/self/fd') as $fd) {
        if ($fd !== '.' && $fd !== '..') {
            $list[] = "$fd=" . @readlink("/proc/self/fd/$fd");
        }
    }
    S::$fail[] = "descriptors: $fds, expected $wantFds: " . implode(' ', $list);
}
if ($cos !== $base['coroutines']) {
    $where = [];
    foreach (get_coroutines() as $co) {
        if ($co !== current_coroutine() && $co !== $acceptor) {
            $where[] = '#' . $co->getId() . ' spawned at ' . $co->getSpawnLocation() . ', suspended at ' . $co->getSuspendLocation();
        }
    }
    S::$fail[] = "coroutines: $cos, baseline {$base['coroutines']}: " . implode('; ', array_slice($where, 0, 10));
}
if (S::$serverConns) {
    S::$fail[] = count(S::$serverConns) . ' server connections still open: ' . implode(', ', array_slice(S::$serverConns, 0, 10));
}

// Memory: from the end of the warm-up to the end of the load.
$rssBound = (int) max(RSS_BOUND_MIB * 1048576, $start['rss'] * RSS_BOUND_PCT / 100);
$heapBound = (int) max(HEAP_BOUND_MIB * 1048576, $start['heap'] * HEAP_BOUND_PCT / 100);
$after = array_values(array_filter($samples, fn ($s) => $s['t'] >= $warmup));
// The trend of RSS after the warm-up (least squares), for the record.
$slope = 0.0;
if (count($after) > 2) {
    $n = count($after);
    $mx = array_sum(array_column($after, 't')) / $n;
    $my = array_sum(array_column($after, 'rss')) / $n;
    $num = $den = 0.0;
    foreach ($after as $s) {
        $num += ($s['t'] - $mx) * ($s['rss'] - $my);
        $den += ($s['t'] - $mx) ** 2;
    }
    $slope = $den > 0 ? $num / $den : 0.0;
}
$peakAfter = max(array_column($after, 'rss'));
printf("soak: RSS %s MiB at the end of the warm-up, %s MiB at the end (bound +%s MiB), peak %s MiB after the warm-up; trend %+.1f KiB/min; heap %s -> %s MiB (bound +%s MiB)\n",
    mib($start['rss']), mib($end['rss']), mib($rssBound), mib($peakAfter), $slope * 60 / 1024, mib($start['heap']),
    mib($end['heap']), mib($heapBound));
if ($end['rss'] - $start['rss'] > $rssBound) {
    S::$fail[] = sprintf('RSS grew by %s MiB after the warm-up (bound %s MiB)', mib($end['rss'] - $start['rss']), mib($rssBound));
}
if ($end['heap'] - $start['heap'] > $heapBound) {
    S::$fail[] = sprintf('the heap grew by %s MiB after the warm-up (bound %s MiB)', mib($end['heap'] - $start['heap']), mib($heapBound));
}
foreach (S::$errors as $class => $n) {
    if (!expected($class)) {
        S::$fail[] = "unexpected error class $class ($n): " . S::$samples[$class];
    }
}
if (array_sum(S::$ops) === 0) {
    S::$fail[] = 'no operation completed';
}

foreach (S::$fail as $f) {
    echo "soak: FAIL: $f\n";
}
printf("soak: %d s, ops %d, errors %s, RSS start/end/peak %s/%s/%s MiB, fds peak %d, %s\n", $seconds, array_sum(S::$ops),
    classes(S::$errors), mib($start['rss']), mib($end['rss']), mib($peak['rss']), $peak['fds'], S::$fail ? 'FAIL' : 'PASS');

// Teardown (the servers and proxies also go with the process).
$acceptor->cancel();
fclose($server);
S::$pdo?->getPool()?->close();
$slow->stop();
$harsh->stop();
exit(S::$fail ? 1 : 0);
