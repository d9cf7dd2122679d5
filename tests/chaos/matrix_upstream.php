<?php
/*
 * The upstream of the scenario matrix (tests/chaos/matrix.php; docs/chaos.md, "The scenario
 * matrix"): a server in a child php run with -n, without ext-async (the upstream must not share
 * the runtime under test), one forked process per connection, so a client that stalls one
 * connection (a blackhole, a half-done TLS handshake) never holds up the next.
 *
 *   php -n matrix_upstream.php line|http [CERT KEY]     prints "listening 127.0.0.1:PORT"
 *
 * line  each request is a line "N\n"; the answer is N bytes of matrix_upstream_bytes(N).
 * http  HTTP/1.1 with keep-alive: GET /N answers 200 with a body of those N bytes
 *       (Content-Length), "Connection: close" honoured; anything else 404.
 * CERT KEY: TLS on every connection (the handshake in the forked process).
 *
 * It exits when its stdin closes (the matrix ended, however it ended), killing its children.
 */

function matrix_upstream_bytes(int $n): string
{
    return substr(str_repeat('0123456789abcdefghijklmnopqrstuvwxyz', intdiv($n, 36) + 1), 0, $n);
}

function upstream_line($c): void
{
    while (($line = fgets($c)) !== false) {
        if (!str_ends_with($line, "\n")) {
            return; // a request cut short: the client is gone
        }
        $n = (int) $line;
        $out = matrix_upstream_bytes($n);
        for ($off = 0; $off < $n; $off += $w) {
            $w = @fwrite($c, substr($out, $off, 65536));
            if (!$w) {
                return;
            }
        }
    }
}

function upstream_http($c): void
{
    $buf = '';
    while (true) {
        while (($end = strpos($buf, "\r\n\r\n")) === false) {
            $chunk = @fread($c, 65536);
            if ($chunk === false || $chunk === '') {
                return;
            }
            $buf .= $chunk;
        }
        $head = substr($buf, 0, $end);
        $buf = substr($buf, $end + 4);
        $close = (bool) preg_match('/^connection:\s*close/im', $head);
        if (preg_match('#^GET /(\d+) HTTP/1\.[01]#', $head, $m)) {
            $body = matrix_upstream_bytes((int) $m[1]);
            $status = '200 OK';
        } else {
            $body = "not found\n";
            $status = '404 Not Found';
        }
        $out = "HTTP/1.1 $status\r\nContent-Type: text/plain\r\nContent-Length: " . strlen($body) . "\r\n"
            . ($close ? "Connection: close\r\n" : '') . "\r\n" . $body;
        for ($off = 0; $off < strlen($out); $off += $w) {
            $w = @fwrite($c, substr($out, $off, 65536));
            if (!$w) {
                return;
            }
        }
        if ($close) {
            return;
        }
    }
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    [, $mode] = $argv + [1 => ''];
    $cert = $argv[2] ?? null;
    $key = $argv[3] ?? null;
    if (!in_array($mode, ['line', 'http'], true)) {
        fwrite(STDERR, "usage: php -n matrix_upstream.php line|http [CERT KEY]\n");
        exit(2);
    }
    $ctx = stream_context_create(['socket' => ['backlog' => 1024]]);
    $srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $ctx);
    if ($srv === false) {
        fwrite(STDERR, "listen: $errstr\n");
        exit(1);
    }
    echo 'listening ', stream_socket_get_name($srv, false), "\n";
    $children = [];
    while (true) {
        $r = [STDIN, $srv];
        $w = $e = null;
        if (@stream_select($r, $w, $e, 0, 200000) === false) {
            break;
        }
        while (($pid = pcntl_waitpid(-1, $status, WNOHANG)) > 0) {
            unset($children[$pid]);
        }
        if (in_array(STDIN, $r, true) && fgets(STDIN) === false) {
            break;
        }
        if (!in_array($srv, $r, true)) {
            continue;
        }
        $c = @stream_socket_accept($srv, 0);
        if ($c === false) {
            continue;
        }
        $pid = pcntl_fork();
        if ($pid === 0) {
            fclose($srv);
            // A client that stalls is dropped after a while: nothing outlives the matrix for long.
            stream_set_timeout($c, 30);
            if ($cert !== null) {
                stream_context_set_option($c, 'ssl', 'local_cert', $cert);
                stream_context_set_option($c, 'ssl', 'local_pk', $key);
                if (!@stream_socket_enable_crypto($c, true, STREAM_CRYPTO_METHOD_TLS_SERVER)) {
                    exit(0);
                }
            }
            $mode === 'line' ? upstream_line($c) : upstream_http($c);
            exit(0);
        }
        fclose($c);
        if ($pid > 0) {
            $children[$pid] = true;
        }
    }
    if ($children) {
        exec('kill -9 ' . implode(' ', array_keys($children)) . ' 2>/dev/null'); // (no ext/posix under -n)
    }
    while (pcntl_waitpid(-1, $status) > 0) {
    }
}
