--TEST--
From coroutines: redirects followed, cookie jars and cookie files, a share handle between two handles, the connection reused across curl_exec() calls on one handle (and not across handles)
--SKIPIF--
<?php
require __DIR__ . '/../inc/http_fixture.inc';
$why = http_fixture_skip_reason();
if ($why !== '') die("skip $why");
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

$server = http_fixture_start();
$url = $server['url'];
$jar = tempnam(sys_get_temp_dir(), 'async-curl-jar');

$r = await(spawn(function () use ($url, $jar) {
    $out = [];
    /* redirects */
    $ch = http_fixture_handle("$url/redirect?n=3", [CURLOPT_FOLLOWLOCATION => true]);
    $out['redirect'] = [curl_exec($ch), curl_getinfo($ch, CURLINFO_REDIRECT_COUNT), curl_getinfo($ch, CURLINFO_HTTP_CODE)];
    /* a cookie jar written at handle close, read by a new handle */
    $ch = http_fixture_handle("$url/cookie/set?flavour=plum", [CURLOPT_COOKIEJAR => $jar]);
    curl_exec($ch);
    unset($ch); // the jar is written when the handle goes
    $ch = http_fixture_handle("$url/cookie/get", [CURLOPT_COOKIEFILE => $jar]);
    $out['jar'] = curl_exec($ch);
    /* the cookie engine within one handle */
    $ch = http_fixture_handle("$url/cookie/set?a=1", [CURLOPT_COOKIEFILE => '']);
    curl_exec($ch);
    curl_setopt($ch, CURLOPT_URL, "$url/cookie/get");
    $out['engine'] = curl_exec($ch);
    return $out;
}));
echo json_encode($r), "\n";

/* a share handle: cookies set through one handle are sent by another, in another coroutine */
$sh = curl_share_init();
curl_share_setopt($sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE);
$setter = await(spawn(function () use ($url, $sh) {
    $ch = http_fixture_handle("$url/cookie/set?shared=yes", [CURLOPT_SHARE => $sh, CURLOPT_COOKIEFILE => '']);
    return curl_exec($ch);
}));
$getter = await(spawn(function () use ($url, $sh) {
    $ch = http_fixture_handle("$url/cookie/get", [CURLOPT_SHARE => $sh, CURLOPT_COOKIEFILE => '']);
    return curl_exec($ch);
}));
echo "$setter / $getter\n";

/* connection reuse: 3 requests on one handle use one connection; another handle opens its own */
function conn_of(string $response): string
{
    return preg_match('/X-Conn: (\d+)\r\nX-Req: (\d+)/', $response, $m) ? "$m[1].$m[2]" : '?';
}
[$results] = await_all([
    spawn(function () use ($url) {
        $ch = http_fixture_handle("$url/delay?ms=20", [CURLOPT_HEADER => true]);
        $seen = [];
        for ($i = 0; $i < 3; $i++) {
            $seen[] = conn_of(curl_exec($ch));
            $seen[] = curl_getinfo($ch, CURLINFO_NUM_CONNECTS);
        }
        return $seen;
    }),
    spawn(function () use ($url) {
        $ch = http_fixture_handle("$url/delay?ms=20", [CURLOPT_HEADER => true]);
        return conn_of(curl_exec($ch));
    }),
]);
[$seq, $other] = $results;
$c = explode('.', $seq[0])[0];
echo json_encode($seq) === json_encode(["$c.1", 1, "$c.2", 0, "$c.3", 0]) ? "one connection, 3 requests\n" : 'unexpected: ' . json_encode($seq) . "\n";
echo explode('.', $other)[0] !== $c && str_ends_with($other, '.1') ? "other handle: own connection\n" : "unexpected: $other\n";
@unlink($jar);
?>
--EXPECT--
{"redirect":["landed",3,200],"jar":"flavour=plum","engine":"a=1"}
set / shared=yes
one connection, 3 requests
other handle: own connection
