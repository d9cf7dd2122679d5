--TEST--
curl: a write callback that throws in a coroutine ends its transfer with CURLE_WRITE_ERROR (23) in curl_errno() and curl_multi_info_read(), in a multi handle PHP code drives and in curl_exec(); outside coroutines the transfer goes on as in stock PHP (issue #39 item 10)
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
use function Async\{spawn, await};

$server = http_fixture_start();
$url = $server['url'];

function multi(string $url): string
{
    $calls = 0;
    $mh = curl_multi_init();
    $ch = http_fixture_handle("$url/slow?chunks=5&ms=20", [
        CURLOPT_RETURNTRANSFER => false,
        CURLOPT_WRITEFUNCTION => function ($ch, $data) use (&$calls) {
            $calls++;
            throw new RuntimeException('no thanks');
        },
    ]);
    $other = http_fixture_handle("$url/slow?chunks=5&ms=20");
    curl_multi_add_handle($mh, $ch);
    curl_multi_add_handle($mh, $other);
    $thrown = 0;
    $results = [];
    do {
        try {
            curl_multi_exec($mh, $active);
            if ($active) {
                curl_multi_select($mh, 1.0);
            }
        } catch (RuntimeException $e) {
            $thrown++;
        }
        while ($info = curl_multi_info_read($mh)) {
            $results[$info['handle'] === $ch ? 'thrower' : 'other'] = $info['result'];
        }
    } while ($active);
    ksort($results);
    return sprintf('callback called %s, thrown %s, curl_errno %d, results %s, the other got %d bytes',
        $calls === 1 ? 'once' : 'more than once', $thrown === 1 ? 'once' : 'more than once', curl_errno($ch),
        json_encode($results), strlen(curl_multi_getcontent($other)));
}

echo 'stock:     ', multi($url), "\n";
echo 'coroutine: ', await(spawn(fn () => multi($url))), "\n";
echo 'curl_exec: ', await(spawn(function () use ($url) {
    $ch = http_fixture_handle("$url/slow?chunks=5&ms=20", [
        CURLOPT_RETURNTRANSFER => false,
        CURLOPT_WRITEFUNCTION => fn ($ch, $data) => throw new RuntimeException('no thanks'),
    ]);
    try {
        curl_exec($ch);
    } catch (RuntimeException $e) {
        return $e->getMessage() . ', curl_errno ' . curl_errno($ch) . ' (' . curl_error($ch) . ')';
    }
})), "\n";
?>
--EXPECTF--
stock:     callback called more than once, thrown more than once, curl_errno 0, results {"other":0,"thrower":0}, the other got 5120 bytes
coroutine: callback called once, thrown once, curl_errno 23, results {"other":0,"thrower":23}, the other got 5120 bytes
curl_exec: no thanks, curl_errno 23 (Failure writing output to destination%S)
