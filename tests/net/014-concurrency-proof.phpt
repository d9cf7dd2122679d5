--TEST--
Net: clients waiting on a slow server finish together (elapsed < sum), also through the http:// wrapper (file_get_contents)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, delay};

const SLOW_MS = 300;

/* A server that answers every connection after SLOW_MS, each connection in its own coroutine. */
function slow_server($srv, int $connections, callable $answer)
{
    return spawn(function () use ($srv, $connections, $answer) {
        $handlers = [];
        for ($i = 0; $i < $connections; $i++) {
            $c = stream_socket_accept($srv, 10);
            $handlers[] = spawn(function () use ($c, $answer) {
                $request = fgets($c);
                delay(SLOW_MS);
                fwrite($c, $answer($request));
                fclose($c);
            });
        }
        foreach ($handlers as $h) {
            await($h);
        }
    });
}

// Two raw clients.
[$srv, $addr] = net_listen();
$server = slow_server($srv, 2, fn($line) => "done: $line");
$t = hrtime(true);
$clients = [];
foreach (['a', 'b'] as $name) {
    $clients[] = spawn(function () use ($addr, $name) {
        $s = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
        fwrite($s, "$name\n");
        return fgets($s);
    });
}
foreach ($clients as $c) {
    echo await($c);
}
$ms = ms_since($t);
await($server);
echo 'two clients together: ', var_export($ms >= SLOW_MS - 1 && $ms < 2 * SLOW_MS * slow_factor(), true), "\n";

// Three file_get_contents('http://...') at once: PHP's http wrapper connects through the tcp
// transport, so each waits in its own coroutine.
[$srv, $addr] = net_listen();
$server = slow_server($srv, 3, function ($requestLine) {
    $path = explode(' ', $requestLine)[1];
    $body = "page $path";
    return "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " . strlen($body) . "\r\n\r\n$body";
});
$t = hrtime(true);
$pages = [];
foreach (['/one', '/two', '/three'] as $path) {
    $pages[] = spawn(fn() => file_get_contents("http://$addr$path"));
}
foreach ($pages as $p) {
    echo await($p), "\n";
}
$ms = ms_since($t);
await($server);
echo 'three requests together: ', var_export($ms >= SLOW_MS - 1 && $ms < 3 * SLOW_MS * slow_factor(), true), "\n";
?>
--EXPECT--
done: a
done: b
two clients together: true
page /one
page /two
page /three
three requests together: true
