--TEST--
1,000 concurrent curl_exec() transfers, one coroutine and one handle each: all answered, in far less than one process could do one after the other
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
use function Async\{spawn, await_all};

$server = http_fixture_start();
$n = 1000;
$delay = 500;

$t0 = hrtime(true);
$tasks = [];
for ($i = 0; $i < $n; $i++) {
    $tasks[] = spawn(function () use ($server, $i, $delay) {
        $ch = http_fixture_handle("{$server['url']}/delay?ms=$delay&body=r$i", [CURLOPT_TIMEOUT_MS => 120000]);
        $body = curl_exec($ch);
        return $body === "r$i" ? 'ok' : "request $i: " . var_export($body, true) . ' ' . curl_error($ch);
    });
}
[$results, $errors] = await_all($tasks);
$elapsed = ms_since($t0);

$bad = array_filter($results, fn($r) => $r !== 'ok');
echo count($results), " answered, ", count($bad), " wrong, ", count($errors), " errors\n";
echo implode("\n", array_slice($bad, 0, 3)), count($bad) ? "\n" : '';
/* one after the other they would take 1000 x 500 ms; together a few delays at most */
$limit = 20 * $delay * slow_factor();
echo $elapsed < $limit ? "concurrent\n" : "too slow: $elapsed ms (limit $limit)\n";
?>
--EXPECT--
1000 answered, 0 wrong, 0 errors
concurrent
