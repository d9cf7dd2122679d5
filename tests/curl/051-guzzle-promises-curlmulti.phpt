--TEST--
Guzzle's default client, unchanged: getAsync() + Promise\Utils::all()->wait() in 3 coroutines (CurlMultiHandler: curl_multi_exec + curl_multi_select) overlap, with a client each and with one shared client
--DESCRIPTION--
An asynchronous Guzzle request goes to CurlMultiHandler, whose wait() loops on
curl_multi_exec() and curl_multi_select(). Each of 3 coroutines starts 3 requests of 300 ms
and waits for all of them: inside one coroutine they overlap by Guzzle's own curl_multi, and
the coroutines overlap because curl_multi_select() suspends only the calling one. Round 1
gives each coroutine a client (a multi handle) of its own; round 2 shares one client, so
three coroutines wait on the same multi handle at once. One after the other the rounds would
take 900 ms each, and the ticker would freeze.
error_reporting leaves out E_DEPRECATED: Guzzle 7.4's CurlMultiHandler creates its $_mh as
a dynamic property, which PHP 8.2 deprecates (the library's, nothing to do with async).
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
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
require __DIR__ . '/../inc/http_clients.inc';
use function Async\{spawn, await};
use GuzzleHttp\Promise\Utils;

http_clients_load('guzzle');
$url = http_fixture_start()['url'];
$viaCurl = fn(?GuzzleHttp\TransferStats $s) => $s !== null && isset($s->getHandlerStats()['primary_port']);

// Plain top-level code, nothing spawned yet: the promise API works as without async.
$shared = new GuzzleHttp\Client();
$rs = Utils::all([$shared->getAsync("$url/delay?ms=20&body=t1"), $shared->getAsync("$url/delay?ms=20&body=t2")])->wait();
echo 'top level: ', implode(' ', array_map(fn($r) => $r->getStatusCode() . ':' . $r->getBody(), $rs)), "\n";

$coroutines = 3;
$perCoroutine = 3;
$delay = 300;
foreach (['a client each', 'one shared client'] as $round) {
    $ticker = new HttpClientsTicker(20);
    $t0 = hrtime(true);
    $cs = [];
    for ($id = 1; $id <= $coroutines; $id++) {
        $cs[$id] = spawn(function () use ($round, $shared, $url, $id, $perCoroutine, $delay, $ticker, $viaCurl) {
            $client = $round === 'a client each' ? new GuzzleHttp\Client() : $shared;
            $ticks = $ticker->ticks;
            $start = hrtime(true);
            $stats = [];
            $promises = [];
            for ($j = 1; $j <= $perCoroutine; $j++) {
                $promises[$j] = $client->getAsync("$url/delay?ms=$delay&body=c{$id}r{$j}",
                    ['on_stats' => function ($s) use (&$stats, $j) { $stats[$j] = $s; }]);
            }
            $responses = Utils::all($promises)->wait();
            $end = hrtime(true);
            $bodies = [];
            foreach ($responses as $j => $r) {
                $bodies[$j] = $r->getStatusCode() . ':' . $r->getBody() . ($viaCurl($stats[$j] ?? null) ? '' : ' (not curl)');
            }
            return ['bodies' => $bodies, 'ms' => ($end - $start) / 1e6, 'ticks' => $ticker->ticks - $ticks, 'window' => [$start, $end]];
        });
    }
    $ok = 0;
    $windows = [];
    foreach ($cs as $id => $c) {
        $res = await($c);
        $windows[] = $res['window'];
        $expected = [];
        for ($j = 1; $j <= $perCoroutine; $j++) {
            $expected[$j] = "200:c{$id}r{$j}";
        }
        if ($res['bodies'] === $expected && $res['ms'] >= $delay - 1 && $res['ticks'] >= 5) {
            $ok++;
        } else {
            unset($res['window']);
            echo "$round, coroutine $id: ", json_encode($res), "\n";
        }
    }
    $total = ms_since($t0);
    $ticker->stop();
    echo "$round: $ok of $coroutines correct, overlapping: ", var_export(http_clients_overlap($windows), true), "\n";
    // One coroutine after the other: 3 x 300 ms (9 x 300 ms without curl_multi).
    var_dump($total >= $delay - 1, $total < 2 * $delay * slow_factor());
    if ($total >= 2 * $delay * slow_factor()) echo "took $total ms\n";
}

// A coroutine's wait() on a client whose transfers finished: still works after the rounds.
$r = await(spawn(fn() => $shared->getAsync("$url/delay?ms=1&body=again")->wait()));
echo 'again: ', $r->getStatusCode(), ' ', $r->getBody(), "\n";
?>
--EXPECT--
top level: 200:t1 200:t2
a client each: 3 of 3 correct, overlapping: true
bool(true)
bool(true)
one shared client: 3 of 3 correct, overlapping: true
bool(true)
bool(true)
again: 200 again
