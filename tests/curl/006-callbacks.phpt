--TEST--
curl callbacks in coroutines: write/header/progress/xferinfo/read run in the coroutine that called curl_exec() and may use the async API (delay, channels); STDOUT output goes to that coroutine's output buffer
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
use Async\Channel;
use function Async\{spawn, await, await_all, delay, current_coroutine};

$server = http_fixture_start();
$url = $server['url'];

/* Each coroutine's callbacks record who ran them; the write callback suspends and forwards the
 * body through a channel to a consumer coroutine. */
$channel = new Channel(0);
$consumer = spawn(function () use ($channel) {
    $got = [];
    foreach ($channel as $chunk) {
        $got[] = $chunk;
    }
    sort($got);
    return $got;
});
$tasks = [];
for ($i = 0; $i < 3; $i++) {
    $tasks[] = spawn(function () use ($url, $i, $channel) {
        $me = current_coroutine();
        $foreign = 0;
        $headers = [];
        $progress = $xfer = 0;
        $ch = http_fixture_handle("$url/slow?chunks=3&ms=30", [
            CURLOPT_RETURNTRANSFER => false,
            CURLOPT_WRITEFUNCTION => function ($ch, $data) use ($me, &$foreign, $channel, $i) {
                $foreign += current_coroutine() !== $me;
                delay(1);
                $channel->send("$i:" . strlen($data));
                return strlen($data);
            },
            CURLOPT_HEADERFUNCTION => function ($ch, $line) use ($me, &$foreign, &$headers) {
                $foreign += current_coroutine() !== $me;
                if (preg_match('/^Content-Length: (\d+)/i', $line, $m)) {
                    $headers[] = (int) $m[1];
                }
                return strlen($line);
            },
            CURLOPT_NOPROGRESS => false,
            CURLOPT_PROGRESSFUNCTION => function () use ($me, &$foreign, &$progress) {
                $foreign += current_coroutine() !== $me;
                $progress++;
                return 0;
            },
        ]);
        $ok = curl_exec($ch);
        curl_setopt($ch, CURLOPT_XFERINFOFUNCTION, function ($ch, $dt, $dn) use ($me, &$foreign, &$xfer) {
            $foreign += current_coroutine() !== $me;
            $xfer++;
            return 0;
        });
        curl_setopt($ch, CURLOPT_WRITEFUNCTION, fn($ch, $d) => strlen($d));
        $ok2 = curl_exec($ch);
        return [$ok, $ok2, $foreign, $headers, $progress > 0, $xfer > 0];
    });
}
[$results, $errors] = await_all($tasks);
$channel->close();
$chunks = await($consumer);
foreach ($results as $r) {
    echo json_encode($r), "\n";
}
var_dump($errors);
/* 3 coroutines x 3 KiB, in pieces: every byte arrived through the channel */
$bytes = [0, 0, 0];
foreach ($chunks as $c) {
    [$who, $len] = explode(':', $c);
    $bytes[$who] += $len;
}
echo json_encode($bytes), "\n";

/* READFUNCTION: an upload whose data comes from a callback that suspends between pieces */
$upload = await(spawn(function () use ($url) {
    $pieces = ['alpha-', 'beta-', 'gamma'];
    $ch = http_fixture_handle("$url/echo", [
        CURLOPT_UPLOAD => true,
        CURLOPT_CUSTOMREQUEST => 'PUT',
        CURLOPT_READFUNCTION => function ($ch, $fd, $length) use (&$pieces) {
            delay(5);
            return (string) array_shift($pieces);
        },
    ]);
    $echo = json_decode(curl_exec($ch), true);
    return [$echo['method'], $echo['body'], curl_errno($ch)];
}));
echo json_encode($upload), "\n";

/* Without CURLOPT_RETURNTRANSFER the body is printed, into the calling coroutine's buffer */
$printed = await(spawn(function () use ($url) {
    ob_start();
    $other = spawn(function () use ($url) {
        $ch = http_fixture_handle("$url/delay?ms=50&body=OTHER", [CURLOPT_RETURNTRANSFER => false]);
        ob_start();
        curl_exec($ch);
        return ob_get_clean();
    });
    $ch = http_fixture_handle("$url/delay?ms=100&body=MINE", [CURLOPT_RETURNTRANSFER => false]);
    $ret = curl_exec($ch);
    return [ob_get_clean(), await($other), $ret];
}));
echo json_encode($printed), "\n";
?>
--EXPECT--
[true,true,0,[3072,3072],true,true]
[true,true,0,[3072,3072],true,true]
[true,true,0,[3072,3072],true,true]
array(0) {
}
[3072,3072,3072]
["PUT","alpha-beta-gamma",0]
["MINE","OTHER",true]
