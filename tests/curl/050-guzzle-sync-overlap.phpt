--TEST--
Guzzle's default client, unchanged: synchronous requests from 4 coroutines overlap (curl_exec() suspends only its coroutine) while another coroutine keeps ticking
--DESCRIPTION--
new GuzzleHttp\Client() with its default handler stack: with ext/curl loaded a synchronous
request goes to CurlHandler, i.e. curl_exec(). Each of 4 coroutines does one 300 ms request on
one shared client; run one after the other they would take 1.2 s and freeze the ticker.
on_stats proves the transfers went through curl (Guzzle's StreamHandler reports no curl
statistics), so the test cannot pass through the stream hooks instead.
pcre.jit=0: Guzzle and Symfony parse headers with preg_*(); under memcheck (the valgrind
lane) PCRE's JIT code, run on a coroutine's stack, is reported as "Conditional jump or move
depends on uninitialised value(s)" at addresses without symbols. The interpreter is clean
(tests/future/014 does the same).
--SKIPIF--
<?php
require __DIR__ . '/../inc/http_clients.inc';
$why = http_clients_skip_reason('guzzle');
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
curl
ctype
--INI--
async.debug_deadlock=0
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../inc/http_clients.inc';
use function Async\{spawn, await};

http_clients_load('guzzle');
$url = http_fixture_start()['url'];
$client = new GuzzleHttp\Client();
$viaCurl = fn(?GuzzleHttp\TransferStats $s) => $s !== null && isset($s->getHandlerStats()['primary_port']);

// Plain top-level code, nothing spawned yet: stock blocking curl, as without async.
$stats = null;
$r = $client->get("$url/delay?ms=20&body=top", ['on_stats' => function ($s) use (&$stats) { $stats = $s; }]);
echo 'top level: ', $r->getStatusCode(), ' ', $r->getBody(), ' via curl: ', var_export($viaCurl($stats), true), "\n";

$n = 4;
$delay = 300;
$ticker = new HttpClientsTicker(20);
$t0 = hrtime(true);
$cs = [];
for ($id = 1; $id <= $n; $id++) {
    $cs[$id] = spawn(function () use ($client, $url, $id, $delay, $ticker, $viaCurl) {
        $stats = null;
        $ticks = $ticker->ticks;
        $start = hrtime(true);
        $r = $client->get("$url/delay?ms=$delay&body=b$id", ['on_stats' => function ($s) use (&$stats) { $stats = $s; }]);
        $end = hrtime(true);
        return ['status' => $r->getStatusCode(), 'body' => (string) $r->getBody(), 'curl' => $viaCurl($stats),
            'ms' => ($end - $start) / 1e6, 'ticks' => $ticker->ticks - $ticks, 'window' => [$start, $end]];
    });
}
$ok = 0;
$windows = [];
foreach ($cs as $id => $c) {
    $res = await($c);
    $windows[] = $res['window'];
    // 300 ms of server delay is 15 ticks of 20 ms; a blocked process would see 0 or 1
    if ($res['status'] === 200 && $res['body'] === "b$id" && $res['curl'] && $res['ms'] >= $delay - 1 && $res['ticks'] >= 5) {
        $ok++;
    } else {
        unset($res['window']);
        echo "coroutine $id: ", json_encode($res), "\n";
    }
}
$total = ms_since($t0);
$ticker->stop();
echo "$ok of $n correct\n";
echo 'overlapping: ', var_export(http_clients_overlap($windows), true), "\n";
// One after the other: 4 x 300 ms = 1.2 s.
var_dump($total >= $delay - 1, $total < 2 * $delay * slow_factor());
if ($total >= 2 * $delay * slow_factor()) echo "took $total ms\n";

// Keep-alive through the hook: a coroutine's second request reuses its handle's connection.
$pair = await(spawn(function () use ($client, $url) {
    $a = $client->get("$url/delay?ms=1&body=a");
    $b = $client->get("$url/delay?ms=1&body=b");
    return [$a->getHeaderLine('X-Conn'), (int) $a->getHeaderLine('X-Req'), $b->getHeaderLine('X-Conn'), (int) $b->getHeaderLine('X-Req'), $a->getBody() . $b->getBody()];
}));
echo 'same connection: ', var_export($pair[0] === $pair[2] && $pair[3] === $pair[1] + 1, true), ' ', $pair[4], "\n";
if ($pair[0] !== $pair[2] || $pair[3] !== $pair[1] + 1) echo json_encode($pair), "\n";

// The main flow (a coroutine now) still gets a normal answer.
$r = $client->get("$url/delay?ms=1&body=after");
echo 'main after: ', $r->getStatusCode(), ' ', $r->getBody(), "\n";
?>
--EXPECT--
top level: 200 top via curl: true
4 of 4 correct
overlapping: true
bool(true)
bool(true)
same connection: true ab
main after: 200 after
