--TEST--
Guzzle (sync and promises) and Symfony HttpClient, unchanged: a request timeout and a cancelled coroutine end only their own transfer, on time, while another coroutine's request and a ticker go on; the client stays usable
--DESCRIPTION--
For each way of using the libraries, three coroutines start together: one asks a route that
never answers with a 200 ms client timeout (Guzzle: libcurl's own timer, run by the hook;
Symfony: its idle timeout, counted around curl_multi_select() timing out), one asks for a
5 s answer and is cancelled after 100 ms (the wait in curl_exec() / curl_multi_select()
throws the cancellation), one asks for a 300 ms answer that must arrive intact. Then the
same client answers again. Blocking curl would make the 300 ms request wait behind the
others and freeze the ticker; a cancellation that did not end the transfer would take 5 s.
Guzzle's promises get a client per coroutine: a CurlMultiHandler's wait() runs every
transfer of that handler to its end (Guzzle's own semantics), so with a shared one the
timed-out and the cancelled coroutine's transfers would hold the others' wait().
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
use function Async\{spawn, await, delay};
use Symfony\Component\HttpClient\HttpClient;

http_clients_load('guzzle', 'symfony');
$url = http_fixture_start()['url'];
$guzzle = new GuzzleHttp\Client();
$symfony = HttpClient::create();

/* name => fn(string $path, float $timeout): string body, one client for the whole kind */
$kinds = [
    'guzzle sync' => fn(string $path, float $timeout = 0) =>
        (string) $guzzle->get($url . $path, ['timeout' => $timeout])->getBody(),
    'guzzle promise' => fn(string $path, float $timeout = 0) =>
        (string) (new GuzzleHttp\Client())->getAsync($url . $path, ['timeout' => $timeout])->wait()->getBody(),
    'symfony' => fn(string $path, float $timeout = 0) =>
        $symfony->request('GET', $url . $path, $timeout > 0 ? ['timeout' => $timeout] : [])->getContent(),
];

foreach ($kinds as $kind => $get) {
    $ticker = new HttpClientsTicker(20);
    $t0 = hrtime(true);
    $timedOut = spawn(function () use ($get) {
        $t = hrtime(true);
        try {
            $get('/hang', 0.2);
            return ['answered', ms_since($t)];
        } catch (Exception $e) {
            return [get_class($e), ms_since($t), $e->getMessage()];
        }
    });
    $victimMs = null;
    $victim = spawn(function () use ($get, &$victimMs, $t0) {
        try {
            return $get('/delay?ms=5000&body=late');
        } finally {
            $victimMs = ms_since($t0); // when it ended, counted from before the cancel delay
        }
    });
    $other = spawn(function () use ($get, $ticker) {
        $ticks = $ticker->ticks;
        $t = hrtime(true);
        $body = $get('/delay?ms=300&body=intact');
        return [$body, ms_since($t), $ticker->ticks - $ticks];
    });

    delay(100);
    $victim->cancel();
    try {
        $v = 'returned ' . await($victim);
    } catch (Async\AsyncCancellation $e) {
        $v = get_class($e);
    }
    [$class, $ms] = $r = await($timedOut);
    [$body, $otherMs, $ticks] = $o = await($other);
    $ticker->stop();

    /* newer Guzzle (Debian sid's) throws a timeout of its own kind where older ones say "connect" */
    $expectedTimeout = str_starts_with($kind, 'guzzle')
        ? (class_exists(GuzzleHttp\Exception\NetworkTimeoutException::class)
            ? GuzzleHttp\Exception\NetworkTimeoutException::class : GuzzleHttp\Exception\ConnectException::class)
        : Symfony\Component\HttpClient\Exception\TimeoutException::class;
    $timeoutOk = $class === $expectedTimeout && $ms >= 199 && $ms < 1000 * slow_factor();
    echo "$kind: timeout ", var_export($timeoutOk, true), "\n";
    if (!$timeoutOk) echo '  ', json_encode($r), "\n";
    // cancelled at 100 ms: 5 s if the transfer had gone on
    $cancelOk = $v === Async\AsyncCancellation::class && $victimMs !== null && $victimMs >= 99 && $victimMs < 1000 * slow_factor();
    echo "$kind: cancelled ", var_export($cancelOk, true), "\n";
    if (!$cancelOk) echo "  $v after ", json_encode($victimMs), " ms\n";
    $otherOk = $body === 'intact' && $otherMs >= 299 && $otherMs < 1000 * slow_factor() && $ticks >= 5;
    echo "$kind: other ", var_export($otherOk, true), "\n";
    if (!$otherOk) echo '  ', json_encode($o), "\n";
    echo "$kind: again ", await(spawn(fn() => $get('/delay?ms=1&body=fine'))), "\n";
}
?>
--EXPECT--
guzzle sync: timeout true
guzzle sync: cancelled true
guzzle sync: other true
guzzle sync: again fine
guzzle promise: timeout true
guzzle promise: cancelled true
guzzle promise: other true
guzzle promise: again fine
symfony: timeout true
symfony: cancelled true
symfony: other true
symfony: again fine
