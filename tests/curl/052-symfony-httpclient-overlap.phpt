--TEST--
Symfony HttpClient::create(), unchanged: a CurlHttpClient; requests from 4 coroutines overlap (one shared client, then a client each), and one coroutine's 5 concurrent requests overlap while another coroutine ticks
--DESCRIPTION--
HttpClient::create() picks CurlHttpClient with ext/curl loaded: one curl multi handle per
client, driven by curl_multi_exec() and curl_multi_select() when a response is read. Round 1:
4 coroutines share one client (they all wait on its multi handle at once); round 2: each
coroutine makes its own client. Then a single coroutine issues 5 requests before reading any
(Symfony's own concurrency) while a second coroutine ticks. Every request takes 300 ms at the
server; one after the other a round would take 1.2 s (1.5 s for the 5) and freeze the ticker.
pcre.jit=0: Guzzle and Symfony parse headers with preg_*(); under memcheck (the valgrind
lane) PCRE's JIT code, run on a coroutine's stack, is reported as "Conditional jump or move
depends on uninitialised value(s)" at addresses without symbols. The interpreter is clean
(tests/future/014 does the same).
--SKIPIF--
<?php
require __DIR__ . '/../inc/http_clients.inc';
$why = http_clients_skip_reason('symfony');
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
curl
--INI--
async.debug_deadlock=0
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../inc/http_clients.inc';
use function Async\{spawn, await};
use Symfony\Component\HttpClient\HttpClient;

http_clients_load('symfony');
$url = http_fixture_start()['url'];

// Plain top-level code, nothing spawned yet: works as without async.
$shared = HttpClient::create();
echo get_class($shared), "\n";
$r = $shared->request('GET', "$url/delay?ms=20&body=top");
echo 'top level: ', $r->getStatusCode(), ' ', $r->getContent(), "\n";

$n = 4;
$delay = 300;
foreach (['one shared client', 'a client each'] as $round) {
    $ticker = new HttpClientsTicker(20);
    $t0 = hrtime(true);
    $cs = [];
    for ($id = 1; $id <= $n; $id++) {
        $cs[$id] = spawn(function () use ($round, $shared, $url, $id, $delay, $ticker) {
            $client = $round === 'one shared client' ? $shared : HttpClient::create();
            $ticks = $ticker->ticks;
            $start = hrtime(true);
            $response = $client->request('GET', "$url/delay?ms=$delay&body=b$id");
            $body = $response->getContent();
            $end = hrtime(true);
            return ['status' => $response->getStatusCode(), 'body' => $body, 'class' => get_class($client),
                'ms' => ($end - $start) / 1e6, 'ticks' => $ticker->ticks - $ticks, 'window' => [$start, $end]];
        });
    }
    $ok = 0;
    $windows = [];
    foreach ($cs as $id => $c) {
        $res = await($c);
        $windows[] = $res['window'];
        if ($res['status'] === 200 && $res['body'] === "b$id" && $res['class'] === Symfony\Component\HttpClient\CurlHttpClient::class
            && $res['ms'] >= $delay - 1 && $res['ticks'] >= 5) {
            $ok++;
        } else {
            unset($res['window']);
            echo "$round, coroutine $id: ", json_encode($res), "\n";
        }
    }
    $total = ms_since($t0);
    $ticker->stop();
    echo "$round: $ok of $n correct, overlapping: ", var_export(http_clients_overlap($windows), true), "\n";
    var_dump($total >= $delay - 1, $total < 2 * $delay * slow_factor());
    if ($total >= 2 * $delay * slow_factor()) echo "took $total ms\n";
}

// One coroutine: 5 requests issued, then read in order, while another coroutine ticks.
$ticker = new HttpClientsTicker(20);
$t0 = hrtime(true);
$res = await(spawn(function () use ($shared, $url, $delay, $ticker) {
    $ticks = $ticker->ticks;
    $responses = [];
    for ($j = 1; $j <= 5; $j++) {
        $responses[$j] = $shared->request('GET', "$url/delay?ms=$delay&body=r$j");
    }
    $bodies = [];
    $connections = [];
    foreach ($responses as $j => $response) {
        $bodies[$j] = $response->getStatusCode() . ':' . $response->getContent();
        $connections[$response->getHeaders()['x-conn'][0]] = true;
    }
    return ['bodies' => implode(' ', $bodies), 'connections' => count($connections), 'ticks' => $ticker->ticks - $ticks];
}));
$total = ms_since($t0);
$ticker->stop();
echo 'one coroutine: ', $res['bodies'], ' on ', $res['connections'], " connections\n";
var_dump($total >= $delay - 1, $total < 2 * $delay * slow_factor(), $res['ticks'] >= 5);
if ($total >= 2 * $delay * slow_factor() || $res['ticks'] < 5) echo "took $total ms, {$res['ticks']} ticks\n";

// The main flow (a coroutine now) reads a response too.
echo 'main after: ', $shared->request('GET', "$url/delay?ms=1&body=after")->getContent(), "\n";
?>
--EXPECT--
Symfony\Component\HttpClient\CurlHttpClient
top level: 200 top
one shared client: 4 of 4 correct, overlapping: true
bool(true)
bool(true)
a client each: 4 of 4 correct, overlapping: true
bool(true)
bool(true)
one coroutine: 200:r1 200:r2 200:r3 200:r4 200:r5 on 5 connections
bool(true)
bool(true)
bool(true)
main after: after
