--TEST--
Guzzle and Symfony HttpClient side by side, unchanged: a Guzzle Pool (concurrency 2), sequential Guzzle requests, a Symfony stream() over 3 responses and a chunked Symfony download run in 4 coroutines at once
--DESCRIPTION--
Each coroutine uses the libraries its own way: a GuzzleHttp\Pool of 4 requests with
concurrency 2 (two waves of 300 ms on CurlMultiHandler), two synchronous Guzzle requests one
after the other (CurlHandler, 2 x 300 ms), Symfony's stream() over 3 responses of 300 ms, and
a Symfony response of 5 chunks 100 ms apart read with stream() as they come. Together they
take about 600 ms (the longest coroutine); one after the other about 2 s.
error_reporting leaves out E_DEPRECATED: Guzzle 7.4's CurlMultiHandler creates its $_mh as
a dynamic property, which PHP 8.2 deprecates.
pcre.jit=0: Guzzle and Symfony parse headers with preg_*(); under memcheck (the valgrind
lane) PCRE's JIT code, run on a coroutine's stack, is reported as "Conditional jump or move
depends on uninitialised value(s)" at addresses without symbols. The interpreter is clean
(tests/future/014 does the same).
--SKIPIF--
<?php
require __DIR__ . '/../inc/http_clients.inc';
$why = http_clients_skip_reason('guzzle', 'symfony');
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
curl
ctype
--INI--
async.debug_deadlock=0
pcre.jit=0
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
require __DIR__ . '/../inc/http_clients.inc';
use function Async\{spawn, await_all};
use GuzzleHttp\Psr7\Request;
use Symfony\Component\HttpClient\HttpClient;

http_clients_load('guzzle', 'symfony');
$url = http_fixture_start()['url'];
$guzzle = new GuzzleHttp\Client();
$symfony = HttpClient::create();

$timed = function (callable $work) {
    return function () use ($work) {
        $t = hrtime(true);
        $result = $work();
        return [$result, ms_since($t)];
    };
};
/* The four workloads; $ms is each response's delay (the chunked one: its chunks' spacing / 3). */
$workloads = fn(int $ms) => [
    'guzzle pool' => $timed(function () use ($guzzle, $url, $ms) {
        $bodies = [];
        $requests = function () use ($url, $ms) {
            for ($j = 1; $j <= 4; $j++) {
                yield $j => new Request('GET', "$url/delay?ms=$ms&body=p$j");
            }
        };
        (new GuzzleHttp\Pool($guzzle, $requests(), [
            'concurrency' => 2,
            'fulfilled' => function ($response, $j) use (&$bodies) { $bodies[$j] = (string) $response->getBody(); },
            'rejected' => function ($reason, $j) use (&$bodies) { $bodies[$j] = get_class($reason); },
        ]))->promise()->wait();
        ksort($bodies);
        return implode(' ', $bodies);
    }),
    'guzzle sync' => $timed(function () use ($guzzle, $url, $ms) {
        return $guzzle->get("$url/delay?ms=$ms&body=s1")->getBody() . ' ' . $guzzle->get("$url/delay?ms=$ms&body=s2")->getBody();
    }),
    'symfony stream' => $timed(function () use ($symfony, $url, $ms) {
        $responses = [];
        for ($j = 1; $j <= 3; $j++) {
            $responses[] = $symfony->request('GET', "$url/delay?ms=$ms&body=y$j", ['user_data' => $j]);
        }
        $bodies = [];
        foreach ($symfony->stream($responses) as $response => $chunk) {
            if ($chunk->isLast()) {
                $bodies[$response->getInfo('user_data')] = $response->getContent();
            }
        }
        ksort($bodies);
        return implode(' ', $bodies);
    }),
    'symfony chunks' => $timed(function () use ($symfony, $url, $ms) {
        $response = $symfony->request('GET', "$url/slow?chunks=5&ms=" . intdiv($ms, 3));
        $bytes = 0;
        $pieces = 0;
        foreach ($symfony->stream($response) as $chunk) {
            $bytes += strlen($chunk->getContent());
            $pieces += $chunk->getContent() !== '' ? 1 : 0;
        }
        // at least one piece per 100 ms chunk, since they were 100 ms apart
        return "$bytes bytes in " . ($pieces >= 5 ? '5 or more' : $pieces) . ' pieces';
    }),
];
// A first pass with short delays loads and compiles the libraries' code (under the tracing JIT
// with hot counters at 1 that alone took 600+ ms here), so the timed pass measures the waits.
await_all(array_map(fn($work) => spawn($work), $workloads(3)));

$ticker = new HttpClientsTicker(20);
$t0 = hrtime(true);
[$results, $errors] = await_all(array_map(fn($work) => spawn($work), $workloads(300)));
$total = ms_since($t0);
$ticker->stop();

foreach ($errors as $name => $e) {
    echo "$name: ", get_class($e), ': ', $e->getMessage(), "\n";
}
$minimum = ['guzzle pool' => 600, 'guzzle sync' => 600, 'symfony stream' => 300, 'symfony chunks' => 500];
foreach ($results as $name => [$result, $ms]) {
    echo "$name: $result", $ms >= $minimum[$name] - 1 ? '' : " (after only $ms ms)", "\n";
}
// One after the other: 600 + 600 + 300 + 500 ms; the ticker would stop meanwhile.
var_dump($total >= 599, $total < 1000 * slow_factor(), $ticker->ticks >= 10);
if ($total >= 1000 * slow_factor() || $ticker->ticks < 10) echo "took $total ms, {$ticker->ticks} ticks\n";
?>
--EXPECT--
guzzle pool: p1 p2 p3 p4
guzzle sync: s1 s2
symfony stream: y1 y2 y3
symfony chunks: 5120 bytes in 5 or more pieces
bool(true)
bool(true)
bool(true)
