--TEST--
Chaos proxy: latency, jitter and a bandwidth cap add at least their time (lower bounds only)
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
use function Async\{spawn, await};

/* One round trip through the proxy: [bytes echoed, ms it took]. A writer and a reader coroutine
 * share the socket, so a payload larger than the socket buffers cannot deadlock. */
function round_trip(ChaosProxy $proxy, string $data): array
{
    $t = hrtime(true);
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    $writer = spawn(function () use ($c, $data) {
        for ($off = 0; $off < strlen($data); $off += $n) {
            $n = fwrite($c, substr($data, $off, 4096));
        }
    });
    [$got] = chaos_read($c, strlen($data));
    await($writer);
    fclose($c);
    return [$got, ms_since($t)];
}

await(spawn(function () {
    $echo = ChaosEcho::start();

    // Both directions wait 100 ms: a round trip takes at least 200.
    $proxy = ChaosProxy::start($echo->addr, 'latency=100');
    [$got, $ms] = round_trip($proxy, 'ping');
    echo "latency=100: $got, ", $ms >= 199 ? 'at least 200 ms' : "only $ms ms", "\n";

    // One direction only.
    $proxy->fault('down:latency=150');
    [$got, $ms] = round_trip($proxy, 'pong');
    echo "down:latency=150: $got, ", $ms >= 149 ? 'at least 150 ms' : "only $ms ms", "\n";

    // Jitter adds 0..50 ms from the seed on top of the latency, and never reorders the stream:
    // 40 lines written one by one come back whole and in order.
    echo 'fault: ', $proxy->fault('latency=20 jitter=50'), "\n";
    $lines = implode('', array_map(fn ($i) => "line $i\n", range(1, 40)));
    [$got, $ms] = round_trip($proxy, $lines);
    echo 'jitter: ', $got === $lines ? 'all lines in order' : 'garbled', ', ', $ms >= 39 ? 'at least 40 ms' : "only $ms ms", "\n";

    // 20000 bytes/s: after the first 10 ms worth (200 bytes), 10000 bytes take at least 490 ms.
    $proxy->fault('bw=20000');
    $data = str_repeat('0123456789', 1000);
    [$got, $ms] = round_trip($proxy, $data);
    echo 'bw=20000: ', $got === $data ? '10000 bytes intact' : 'corrupted', ', ', $ms >= 489 ? 'at least 490 ms' : "only $ms ms", "\n";

    // Each client closed: the proxy passed the EOF on and closed its two sides (events, not sleeps).
    for ($id = 1; $id <= 4; $id++) {
        $proxy->waitEvent("/^conn $id closed /");
    }
    $stats = $proxy->stats();
    foreach ($stats as $id => $s) {
        echo "conn $id: {$s['state']} up_sent={$s['up_sent']} down_sent={$s['down_sent']} fault=\"{$s['fault']}\"\n";
    }
    $proxy->stop();
    $echo->stop();
}));
?>
--EXPECT--
latency=100: ping, at least 200 ms
down:latency=150: pong, at least 150 ms
fault: latency=20 jitter=50
jitter: all lines in order, at least 40 ms
bw=20000: 10000 bytes intact, at least 490 ms
conn 1: closed up_sent=4 down_sent=4 fault="latency=100"
conn 2: closed up_sent=4 down_sent=4 fault="down:latency=150"
conn 3: closed up_sent=311 down_sent=311 fault="latency=20 jitter=50"
conn 4: closed up_sent=10000 down_sent=10000 fault="bw=20000"
