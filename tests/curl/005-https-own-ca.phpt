--TEST--
HTTPS with a CA the test generates: 4 coroutines overlap, the certificate is verified (an unknown CA fails as stock, errno 60), and the TLS connection is reused by the handle's next curl_exec()
--SKIPIF--
<?php
require __DIR__ . '/../inc/http_fixture.inc';
$why = http_fixture_skip_reason();
if ($why !== '') die("skip $why");
if (!extension_loaded('openssl')) die('skip openssl not loaded');
?>
--EXTENSIONS--
curl
--INI--
pcre.jit=0
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/http_fixture.inc';
use function Async\{spawn, await, await_all};

$server = http_fixture_start(true);
$url = $server['url'];
$ca = $server['ca'];

function unknown_ca(string $url): array
{
    $ch = http_fixture_handle("$url/delay?ms=0");
    return [curl_exec($ch), curl_errno($ch), curl_error($ch)];
}
/* stock: before the first spawn(), while no coroutine exists and curl is left alone (afterwards the
 * main script is a coroutine too). libcurl's message changes with its version: the coroutine's is
 * compared with stock's */
$stock = unknown_ca($url);

$t0 = hrtime(true);
$tasks = [];
for ($i = 0; $i < 4; $i++) {
    $tasks[] = spawn(function () use ($url, $ca, $i) {
        $ch = http_fixture_handle("$url/delay?ms=300&body=tls$i", [CURLOPT_CAINFO => $ca, CURLOPT_HEADER => true]);
        $first = curl_exec($ch);
        $again = curl_exec($ch);
        preg_match('/X-Conn: (\d+)/', $first, $c1);
        preg_match('/X-Conn: (\d+)/', $again, $c2);
        return [substr($first, -4), curl_errno($ch), curl_getinfo($ch, CURLINFO_SSL_VERIFYRESULT),
            $c1[1] === $c2[1] ? 'reused' : 'new connection', curl_getinfo($ch, CURLINFO_NUM_CONNECTS)];
    });
}
[$results, $errors] = await_all($tasks);
$elapsed = ms_since($t0);
foreach ($results as $r) {
    echo json_encode($r), "\n";
}
var_dump($errors);
/* two sequential requests per coroutine: 600 ms together, 2.4 s one after the other */
echo $elapsed < 1500 * slow_factor() ? "overlapped\n" : "serial: $elapsed ms\n";

$co = await(spawn(fn() => unknown_ca($url)));
echo json_encode(array_slice($co, 0, 2)), $co === $stock ? ", message as stock\n"
    : " differs from stock: " . json_encode($co) . ' vs ' . json_encode($stock) . "\n";
?>
--EXPECT--
["tls0",0,0,"reused",0]
["tls1",0,0,"reused",0]
["tls2",0,0,"reused",0]
["tls3",0,0,"reused",0]
array(0) {
}
overlapped
[false,60], message as stock
