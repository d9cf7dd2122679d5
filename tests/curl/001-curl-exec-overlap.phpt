--TEST--
curl_exec() in 4 coroutines: the 300 ms requests overlap (about one delay, not four) while another coroutine keeps ticking
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
use function Async\{spawn, await_all, delay};

$server = http_fixture_start();
$n = 4;
$delay = 300;

$t0 = hrtime(true);
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(10);
        $ticks++;
    }
});
$tasks = [];
for ($i = 0; $i < $n; $i++) {
    $tasks[] = spawn(function () use ($server, $i, $delay) {
        $ch = http_fixture_handle("{$server['url']}/delay?ms=$delay&body=reply$i");
        $body = curl_exec($ch);
        return [$body, curl_errno($ch), curl_error($ch), curl_getinfo($ch, CURLINFO_HTTP_CODE)];
    });
}
[$results, $errors] = await_all($tasks);
$elapsed = ms_since($t0);
$done = true;
Async\await($ticker);

var_dump($errors);
foreach ($results as $i => $r) {
    echo "$i: ", json_encode($r), "\n";
}
$limit = 2 * $delay * slow_factor();
echo $elapsed >= $delay - 1 ? "waited the delay\n" : "too fast: $elapsed ms\n";
echo $elapsed < $limit ? "overlapped\n" : "serial: $elapsed ms (limit $limit)\n";
/* the ticker ran all along: a blocked process would have left it at ~0 */
echo $ticks >= 10 ? "ticker ran\n" : "ticker starved: $ticks ticks\n";
?>
--EXPECT--
array(0) {
}
0: ["reply0",0,"",200]
1: ["reply1",0,"",200]
2: ["reply2",0,"",200]
3: ["reply3",0,"",200]
waited the delay
overlapped
ticker ran
