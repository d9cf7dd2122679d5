--TEST--
curl_multi in one coroutine (curl_multi_exec/curl_multi_select/curl_multi_info_read/curl_multi_getcontent) while another coroutine ticks; results and errors as stock
--SKIPIF--
<?php
require __DIR__ . '/../inc/http_fixture.inc';
$why = http_fixture_skip_reason();
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
curl
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/http_fixture.inc';
use function Async\{spawn, await, delay};

$server = http_fixture_start();
$probe = stream_socket_server('tcp://127.0.0.1:0');
$refused = stream_socket_get_name($probe, false);
fclose($probe);

/* The same multi run, returned as lines; $select counts curl_multi_select() calls. */
function multi_run(string $url, string $refused, int &$selects): array
{
    $mh = curl_multi_init();
    $handles = [
        'a' => http_fixture_handle("$url/delay?ms=300&body=A"),
        'b' => http_fixture_handle("$url/delay?ms=200&body=B"),
        'refused' => http_fixture_handle("http://$refused/"),
        'aborted' => http_fixture_handle("$url/slow?chunks=4&ms=20",
            [CURLOPT_NOPROGRESS => false, CURLOPT_XFERINFOFUNCTION => fn($ch, $dt, $dn) => $dn > 0 ? 1 : 0]),
    ];
    foreach ($handles as $ch) {
        curl_multi_add_handle($mh, $ch);
    }
    $messages = [];
    do {
        $status = curl_multi_exec($mh, $active);
        while ($info = curl_multi_info_read($mh)) {
            $messages[array_search($info['handle'], $handles, true)] = $info['result'];
        }
        if ($active) {
            $selects++;
            curl_multi_select($mh, 5.0);
        }
    } while ($active && $status === CURLM_OK);
    while ($info = curl_multi_info_read($mh)) {
        $messages[array_search($info['handle'], $handles, true)] = $info['result'];
    }
    ksort($messages);
    $lines = [];
    foreach ($handles as $name => $ch) {
        $content = curl_multi_getcontent($ch);
        $lines[] = sprintf('%s: result=%d errno=%d content=%s', $name, $messages[$name] ?? -1, curl_errno($ch),
            strlen($content) > 10 ? strlen($content) . ' bytes' : json_encode($content));
        curl_multi_remove_handle($mh, $ch);
    }
    return $lines;
}

$selects = 0;
$stock = multi_run($server['url'], $refused, $selects);

$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(10);
        $ticks++;
    }
});
$t0 = hrtime(true);
$coSelects = 0;
$inCoroutine = await(spawn(function () use ($server, $refused, &$coSelects) {
    return multi_run($server['url'], $refused, $coSelects);
}));
$elapsed = ms_since($t0);
$done = true;
await($ticker);

echo implode("\n", $inCoroutine), "\n";
echo $inCoroutine === $stock ? "same as stock\n" : "differs from stock:\n" . implode("\n", $stock) . "\n";
echo $elapsed >= 299 ? "took the longest delay\n" : "too fast: $elapsed\n";
/* ~300 ms of select waits: the ticker must have run through them */
echo $ticks >= 10 ? "ticker ran\n" : "ticker starved: $ticks ticks\n";
echo $coSelects > 0 ? "selected\n" : "never selected\n";
?>
--EXPECT--
a: result=0 errno=0 content="A"
b: result=0 errno=0 content="B"
refused: result=7 errno=7 content=""
aborted: result=42 errno=42 content=1024 bytes
same as stock
took the longest delay
ticker ran
selected
