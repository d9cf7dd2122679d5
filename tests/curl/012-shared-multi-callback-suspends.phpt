--TEST--
One curl multi handle driven by two coroutines while a callback of one suspends inside curl_multi_exec(): the other waits its turn (no CURLM_RECURSIVE_API_CALL, no spinning), both transfers complete; Guzzle's shared client likewise
--DESCRIPTION--
Stock PHP never suspends inside a libcurl callback, so libcurl's refusal of re-entry
(CURLM_RECURSIVE_API_CALL) cannot happen there. In coroutines it would: coroutine A's progress
callback calls delay() inside curl_multi_exec(), and coroutine B's curl_multi_add_handle(),
curl_multi_exec() and curl_multi_select() on the same multi would fail at once (and a loop
like Guzzle's would spin for ever). They wait until A is out of libcurl instead.
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
require __DIR__ . '/../inc/http_fixture.inc';
require __DIR__ . '/../inc/http_clients.inc';
http_clients_load('guzzle');
use function Async\{spawn, await, await_all, delay};

$server = http_fixture_start();
$url = $server['url'];

/* raw curl: a shared multi, A's callback suspends, B adds and drives its own transfer */
$mh = curl_multi_init();
$codes = [];
function drive($mh, string $who, array &$codes): void
{
    do {
        $code = curl_multi_exec($mh, $active);
        if ($code !== CURLM_OK) {
            $codes[] = "$who exec $code";
        }
        if ($active && curl_multi_select($mh, 1.0) === -1) {
            $codes[] = "$who select -1 (" . curl_multi_errno($mh) . ')';
        }
        while ($info = curl_multi_info_read($mh)) {
            // both coroutines read messages; results are checked on the handles
        }
    } while ($active);
}
$inCallback = false;
$a = spawn(function () use ($mh, $url, &$codes, &$inCallback) {
    $ch = http_fixture_handle("$url/slow?chunks=4&ms=30", [CURLOPT_NOPROGRESS => false,
        CURLOPT_XFERINFOFUNCTION => function ($ch, $dt, $dn) use (&$inCallback) {
            if ($dn > 0 && !$inCallback) {
                $inCallback = true;
                delay(150); // suspended inside curl_multi_exec()
            }
            return 0;
        }]);
    curl_multi_add_handle($mh, $ch);
    drive($mh, 'A', $codes);
    return strlen(curl_multi_getcontent($ch));
});
$b = spawn(function () use ($mh, $url, &$codes, &$inCallback) {
    while (!$inCallback) {
        delay(5);
    }
    $ch = http_fixture_handle("$url/delay?ms=10&body=from-b");
    $added = curl_multi_add_handle($mh, $ch);
    drive($mh, 'B', $codes);
    return [$added, curl_multi_getcontent($ch)];
});
[$results, $errors] = await_all([$a, $b]);
echo json_encode($results), "\n";
var_dump($errors);
echo $codes === [] ? "no libcurl refusals\n" : implode("\n", $codes) . "\n";

/* Guzzle: one client shared; coroutine 1's on_headers suspends, coroutine 2 starts its own request.
 * Newer Guzzle (Debian sid's) refuses a wait on a handler while one of its callbacks runs, in its own
 * code and with its own exception, whoever waits: that is what coroutine 2 must then get (never a
 * libcurl refusal, never a hang). Older Guzzle (Debian 12's, 13's) lets it wait its turn. */
$guzzleRefuses = str_contains(file_get_contents((new ReflectionClass(GuzzleHttp\Handler\CurlMultiHandler::class))->getFileName()),
    'Cannot synchronously wait for a transfer from inside a cURL callback');
$client = new GuzzleHttp\Client();
/* Guzzle's code run once first: under the tracing JIT with hot counters at 1, compiling it on its
 * first requests took 1.2-3.7 s on 8.5 here, which the bound below is not about */
await(spawn(fn() => (string) $client->getAsync("$url/delay?ms=1&body=warm", ['on_headers' => function () {}])->wait()->getBody()));
$t0 = hrtime(true);
$c1 = spawn(fn() => (string) $client->getAsync("$url/delay?ms=1&body=one",
    ['on_headers' => function () { delay(200); }])->wait()->getBody());
$c2 = spawn(function () use ($client, $url, $guzzleRefuses) {
    delay(100); // coroutine 1 is inside its on_headers callback now
    try {
        return (string) $client->getAsync("$url/delay?ms=1&body=two")->wait()->getBody();
    } catch (GuzzleHttp\Exception\RequestException $e) {
        return $guzzleRefuses && str_contains($e->getMessage(), 'from inside a cURL callback') ? 'two' : get_class($e) . ': ' . $e->getMessage();
    }
});
echo await($c1), ' ', await($c2), "\n";
$ms = ms_since($t0);
/* a hang is for ever, or a 1 s select timeout per round; the JIT's compiles of Guzzle's paths
 * first taken here still cost 0.8-1.3 s on 8.5's tracing JIT with hot counters at 1 */
$jit = function_exists('opcache_get_status') && (opcache_get_status(false)['jit']['on'] ?? false);
echo $ms < 2000 * slow_factor() * ($jit ? 3 : 1) ? "guzzle done\n" : "guzzle slow: $ms ms\n";
?>
--EXPECT--
[4096,[0,"from-b"]]
array(0) {
}
no libcurl refusals
one two
guzzle done
