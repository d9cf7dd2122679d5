<?php
/*
 * http_floor: the least a PHP HTTP server can do per request on this runtime, for bench/http.sh
 * (FLOOR=1). NOT a server to use: it parses nothing and answers every read with one "Hello"
 * response, which is only right for a client that sends one request per write and waits for its
 * answer (wrk without pipelining). It closes after a read that asks for "Connection: close".
 *
 * It makes the same system calls per request as examples/http_server.php (one recvfrom, one
 * sendto) with a coroutine per connection, so the gap between the two is the example's parsing,
 * and the gap between this and nginx is what no PHP code could remove.
 *
 * Run: php -n -d extension=modules/async.so bench/http_floor.php 127.0.0.1:0
 */
use function Async\spawn;

const HELLO = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nHello";
const HELLO_CLOSE = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: close\r\n\r\nHello";

$address = $argv[1] ?? '127.0.0.1:8080';
$server = stream_socket_server("tcp://$address", $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
    stream_context_create(['socket' => ['backlog' => 1024]]));
if ($server === false) {
    fwrite(STDERR, "cannot listen on $address: $errstr\n");
    exit(1);
}
echo 'listening on ', stream_socket_get_name($server, false), "\n";
for (;;) {
    $conn = @stream_socket_accept($server, -1);
    if ($conn === false) {
        continue;
    }
    spawn(static function ($conn): void {
        while (($chunk = fread($conn, 65536)) !== false && $chunk !== '') {
            if (stripos($chunk, "connection: close") !== false) {
                fwrite($conn, HELLO_CLOSE);
                break;
            }
            fwrite($conn, HELLO);
        }
        fclose($conn);
    }, $conn);
}
