--TEST--
curl_exec() in a coroutine fails as stock: total and connect timeouts, refused, unresolvable host, a callback aborting (write returns 0, progress/xferinfo return non-zero) — same result, errno and message
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
use function Async\{spawn, await, delay};

$server = http_fixture_start();
$url = $server['url'];
$probe = stream_socket_server('tcp://127.0.0.1:0');
$refused = stream_socket_get_name($probe, false);
fclose($probe);
/* a listener whose backlog is full drops new SYNs: connects hang until the connect timeout */
$full = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
    stream_context_create(['socket' => ['backlog' => 0]]));
$fullName = stream_socket_get_name($full, false);
$fillers = [];
for ($i = 0; $i < 4; $i++) {
    $fillers[] = stream_socket_client("tcp://$fullName", $errno, $errstr, 1, STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT);
}

$cases = [
    'total timeout' => ["$url/hang", [CURLOPT_TIMEOUT_MS => 300]],
    'connect timeout' => ["http://$fullName/", [CURLOPT_CONNECTTIMEOUT_MS => 300]],
    'refused' => ["http://$refused/", []],
    'unresolvable' => ['http://no-such-host.invalid/', []],
    'write returns 0' => ["$url/delay?ms=0", [CURLOPT_RETURNTRANSFER => false, CURLOPT_WRITEFUNCTION => fn($ch, $data) => 0]],
    'progress aborts' => ["$url/slow?chunks=3&ms=50", [CURLOPT_NOPROGRESS => false, CURLOPT_PROGRESSFUNCTION => fn() => 1]],
    'xferinfo aborts' => ["$url/slow?chunks=3&ms=50", [CURLOPT_NOPROGRESS => false, CURLOPT_XFERINFOFUNCTION => fn() => 1]],
    'http 404' => ["$url/nothing-here", []],
];

function attempt(string $url, array $options): array
{
    $ch = http_fixture_handle($url, $options);
    $t0 = hrtime(true);
    $result = curl_exec($ch);
    /* milliseconds vary from run to run */
    $message = preg_replace('/\d+ (ms|milliseconds)/', 'N $1', curl_error($ch));
    /* libcurl words a connect timeout in two ways, by which of its checks sees it first (timing:
     * valgrind changes it, for stock curl too) */
    $message = preg_replace('/^(Failed to connect to .* after N ms: Timeout was reached|Connection timeout after N ms)$/',
        'connect timed out', $message);
    return [$result, curl_errno($ch), $message, curl_getinfo($ch, CURLINFO_HTTP_CODE), ms_since($t0)];
}

$ticks = 0;
foreach ($cases as $name => [$u, $options]) {
    $stock = attempt($u, $options);
    $done = false;
    $ticker = spawn(function () use (&$ticks, &$done) {
        while (!$done) {
            delay(5);
            $ticks++;
        }
    });
    $co = await(spawn(fn() => attempt($u, $options)));
    $done = true;
    await($ticker);
    $elapsedStock = array_pop($stock);
    $elapsed = array_pop($co);
    echo "$name: ", json_encode($co), $co === $stock ? '' : ' DIFFERS FROM STOCK ' . json_encode($stock), "\n";
    if (str_contains($name, 'timeout') && $elapsed < 299) {
        echo "  timed out early: $elapsed ms\n";
    }
}
/* the two timeouts alone wait 600 ms in coroutines: the ticker ran through them */
echo $ticks >= 40 ? "ticker ran\n" : "ticker starved: $ticks\n";
?>
--EXPECTF--
total timeout: [false,28,"Operation timed out after N milliseconds with 0 bytes received",0]
connect timeout: [false,28,"connect timed out",0]
refused: [false,7,"Failed to connect to 127.0.0.1 port %d after N ms: Couldn't connect to server",0]
unresolvable: [false,6,"Could not resolve host: no-such-host.invalid",0]
write returns 0: [false,23,"Failure writing output to destination",200]
progress aborts: [false,42,"Callback aborted",0]
xferinfo aborts: [false,42,"Callback aborted",0]
http 404: ["not found",0,"",404]
ticker ran
