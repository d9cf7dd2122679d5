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
    /* libcurl words a connect timeout in several ways, by which of its checks sees it first (timing:
     * valgrind changes it, for stock curl too) and by its version */
    $message = preg_replace('/^(Failed to connect to .* after N ms: Timeout was reached|Connection timeout after N ms'
        . '|Connection timed out after N milliseconds)$/', 'connect timed out', $message);
    return [$result, curl_errno($ch), $message, curl_getinfo($ch, CURLINFO_HTTP_CODE), ms_since($t0)];
}

/* stock: each call made once before the first spawn(), while no coroutine exists and curl is left
 * alone (afterwards the main script is a coroutine too). libcurl's messages change with its
 * version: the coroutine's message is compared with stock's; result, errno and HTTP code are shown */
$stock = [];
foreach ($cases as $name => [$u, $options]) {
    $stock[$name] = attempt($u, $options);
    array_pop($stock[$name]);
}

$ticks = 0;
foreach ($cases as $name => [$u, $options]) {
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
    $elapsed = array_pop($co);
    [$result, $errno, , $code] = $co;
    echo "$name: ", json_encode([$result, $errno, $code]), $co === $stock[$name] ? ', message as stock'
        : ' DIFFERS FROM STOCK ' . json_encode($co) . ' vs ' . json_encode($stock[$name]), "\n";
    if (str_contains($name, 'timeout') && $elapsed < 299) {
        echo "  timed out early: $elapsed ms\n";
    }
}
/* the two timeouts alone wait 600 ms in coroutines: the ticker ran through them */
echo $ticks >= 40 ? "ticker ran\n" : "ticker starved: $ticks\n";
?>
--EXPECT--
total timeout: [false,28,0], message as stock
connect timeout: [false,28,0], message as stock
refused: [false,7,0], message as stock
unresolvable: [false,6,0], message as stock
write returns 0: [false,23,200], message as stock
progress aborts: [false,42,0], message as stock
xferinfo aborts: [false,42,0], message as stock
http 404: ["not found",0,404], message as stock
ticker ran
