<?php
/*
 * ext-async demo: plain PHP made concurrent with spawn() and await().
 * Run: scripts/demo.sh   (or: php -d extension=modules/async.so examples/demo.php)
 */
use function Async\{spawn, await, delay};

function elapsed(float $since): string
{
    return sprintf('%4d ms', round((microtime(true) - $since) * 1000));
}

echo "1. Two coroutines that each wait 100 ms finish together:\n";
$t = microtime(true);
$a = spawn(function () { delay(100); return 'a'; });
$b = spawn(function () { delay(100); return 'b'; });
echo '   ', await($a), await($b), ' in ', elapsed($t), " (not 200)\n\n";

echo "2. Ten 'requests' of 50-150 ms each, with plain usleep(), run side by side:\n";
$t = microtime(true);
$jobs = [];
foreach (range(1, 10) as $i) {
    $jobs[$i] = spawn(function (int $i) use ($t) {
        usleep(random_int(50, 150) * 1000);   // suspends only this coroutine
        return "job $i done at " . elapsed($t);
    }, $i);
}
foreach ($jobs as $job) {
    echo '   ', await($job), "\n";
}
echo '   all ten in ', elapsed($t), " (sequentially they would take about a second)\n\n";

echo "3. Errors travel to whoever awaits:\n";
$failing = spawn(function () { delay(10); throw new RuntimeException('upstream timed out'); });
try {
    await($failing);
} catch (RuntimeException $e) {
    echo '   caught: ', $e->getMessage(), "\n\n";
}

echo "4. Cancellation is delivered at the next suspension point, finally blocks run:\n";
$worker = spawn(function () {
    try {
        delay(10_000);
    } finally {
        echo "   worker cleaned up\n";
    }
});
delay(5);
$worker->cancel();
try {
    await($worker);
} catch (Async\AsyncCancellation $e) {
    echo '   worker: ', $e->getMessage(), "\n\n";
}

echo "5. 10,000 coroutines, each sleeping 10 ms:\n";
$t = microtime(true);
$all = [];
for ($i = 0; $i < 10_000; $i++) {
    $all[] = spawn(function (int $i) { delay(10); return $i; }, $i);
}
$sum = 0;
foreach ($all as $c) {
    $sum += await($c);
}
echo '   sum = ', $sum, ' in ', elapsed($t), "\n";

echo "\n6. Plain stream code, unchanged: a tiny server answers after 100 ms; 20 clients in a TaskGroup\n";
echo "   (concurrency 10) use fsockopen/fwrite/fgets and file_get_contents('http://...'):\n";
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
$port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
$acceptor = spawn(function () use ($server) {
    while ($conn = @stream_socket_accept($server, -1)) {
        spawn(function () use ($conn) {
            $request = fgets($conn);             // suspends only this coroutine
            while (($line = fgets($conn)) !== false && trim($line) !== '') {}
            usleep(100_000);                      // a slow backend
            $body = 'hello ' . trim(explode(' ', $request)[1] ?? '');
            fwrite($conn, "HTTP/1.0 200 OK\r\nContent-Length: " . strlen($body) . "\r\n\r\n$body");
            fclose($conn);
        });
    }
});
$t = microtime(true);
$group = new Async\TaskGroup(concurrency: 10);
for ($i = 0; $i < 20; $i++) {
    $group->spawn($i % 2
        ? fn() => file_get_contents("http://127.0.0.1:$port/http$i")
        : function () use ($port, $i) {
            $fp = fsockopen('127.0.0.1', $port);
            fwrite($fp, "GET /sock$i HTTP/1.0\r\n\r\n");
            $reply = stream_get_contents($fp);
            fclose($fp);
            return substr($reply, strpos($reply, "\r\n\r\n") + 4);
        });
}
$results = await($group->all());
echo '   ', count($results), ' replies (', $results[0], ', ', $results[1], ', ...) in ', elapsed($t),
    " (10 at a time: about 200 ms; one after another: 2 s)\n";
$acceptor->cancel();
fclose($server);
