--TEST--
One curl multi handle shared by coroutines: a coroutine in curl_multi_select() wakes when another coroutine's curl_multi_exec() ends transfers (whose sockets it read dry), not at its timeout; two coroutines that select and exec in turn do not wake each other in a loop; a cancelled or abandoned select leaves nothing behind
--DESCRIPTION--
Coroutine S enters curl_multi_select() on sockets whose answer has arrived but was not read
yet; coroutine X runs next in the same batch and its curl_multi_exec() reads that answer and
ends the transfer before the reactor polls again. The socket is then dry (a kept-alive
connection), so nothing of S's own would wake it before its 5 s timeout (before the fix it
slept 5 s here; with Guzzle's client shared by coroutines, its 1 s select timeout: the flaky
tests/curl/051). S must be woken by X's progress instead, with 0 as on a timeout.
Only a drop in the running count wakes a selector: two coroutines each looping
exec + select(1.0) on one slow transfer must not ping-pong (a bounded number of loops).
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
use function Async\{spawn, await, await_all, delay, suspend};

$server = http_fixture_start();
$url = $server['url'];

/* A transfer on $mh whose request is out and whose answer is not read: libcurl has no timer of
 * its own due for seconds (Happy Eyeballs' 200 ms would be one), so a select waits for the
 * socket, the progress of others, or its own timeout. */
function pending_transfer($mh, string $url)
{
    $ch = http_fixture_handle($url, [CURLOPT_HAPPY_EYEBALLS_TIMEOUT_MS => 30000]);
    curl_multi_add_handle($mh, $ch);
    $loops = 0;
    do {
        curl_multi_exec($mh, $running);
        $sent = curl_getinfo($ch, CURLINFO_REQUEST_SIZE) > 0;
        if (!$sent && $running) {
            curl_multi_select($mh, 1.0);
        }
    } while (!$sent && $running && ++$loops < 1000);
    if (!$sent || !$running) {
        throw new RuntimeException("request not pending (sent=$sent, running=$running)");
    }
    return $ch;
}

/* 1. S selects on a socket whose answer X reads in the same batch */
echo await(spawn(function () use ($url) {
    $mh = curl_multi_init();
    $ch = pending_transfer($mh, "$url/delay?ms=30&body=done");
    delay(100); // the answer arrives; nobody reads it
    $s = spawn(function () use ($mh) {
        $t0 = hrtime(true);
        $ready = curl_multi_select($mh, 5.0);
        return [$ready, ms_since($t0)];
    });
    $x = spawn(function () use ($mh) {
        curl_multi_exec($mh, $running);
        return $running;
    });
    [$ready, $ms] = await($s);
    $stillRunning = await($x);
    $info = curl_multi_info_read($mh);
    $lines = [];
    $lines[] = "exec in X left $stillRunning running";
    $lines[] = 'transfer: ' . ($info['msg'] ?? 'none') . ' ' . ($info['result'] ?? '-') . ' ' . curl_multi_getcontent($ch);
    $lines[] = 'select in S: ' . ($ready >= 0 ? 'no error' : "error $ready");
    $lines[] = $ms < 2000 * slow_factor() ? 'S woke by progress, not at its timeout' : "S slept $ms ms";
    curl_multi_remove_handle($mh, $ch);
    return implode("\n", $lines);
})), "\n";

/* 2. two coroutines select and exec in turn on one slow transfer: no ping-pong */
echo await(spawn(function () use ($url) {
    $mh = curl_multi_init();
    $ch = http_fixture_handle("$url/delay?ms=300&body=slow");
    curl_multi_add_handle($mh, $ch);
    $loops = ['a' => 0, 'b' => 0];
    $drive = function (string $who) use ($mh, &$loops) {
        do {
            curl_multi_exec($mh, $running);
            if ($running) {
                curl_multi_select($mh, 1.0);
            }
            $loops[$who]++;
        } while ($running && $loops[$who] < 10000);
    };
    $t0 = hrtime(true);
    await_all([spawn($drive, 'a'), spawn($drive, 'b')]);
    $ms = ms_since($t0);
    $total = $loops['a'] + $loops['b'];
    $lines = [];
    $lines[] = 'slow transfer: ' . curl_multi_getcontent($ch);
    $lines[] = $total <= 40 ? 'no ping-pong between the two selectors' : "loops: $total";
    $lines[] = $ms >= 299 ? 'the transfer took its 300 ms' : "too fast: $ms ms";
    curl_multi_remove_handle($mh, $ch);
    return implode("\n", $lines);
})), "\n";

/* 3. a select cancelled while it waits; then the multi works as before */
echo await(spawn(function () use ($url) {
    $mh = curl_multi_init();
    $hang = pending_transfer($mh, "$url/hang");
    $s = spawn(fn() => curl_multi_select($mh, 5.0));
    suspend(); // S is inside curl_multi_select()
    $s->cancel();
    try {
        await($s);
        $cancelled = 'not cancelled';
    } catch (Async\AsyncCancellation $e) {
        $cancelled = 'select cancelled';
    }
    curl_multi_remove_handle($mh, $hang);
    $ch = http_fixture_handle("$url/delay?ms=20&body=after");
    curl_multi_add_handle($mh, $ch);
    do {
        curl_multi_exec($mh, $running);
        if ($running) {
            curl_multi_select($mh, 1.0);
        }
    } while ($running);
    $body = curl_multi_getcontent($ch);
    curl_multi_remove_handle($mh, $ch);
    return "$cancelled\nafterwards: $body";
})), "\n";

/* 4. a coroutine inside curl_multi_select() when exit() starts the graceful shutdown: cancelled */
$mh = curl_multi_init();
$selecting = false;
spawn(function () use ($mh, $url, &$selecting) {
    pending_transfer($mh, "$url/hang");
    try {
        $selecting = true; // nothing suspends between this and the select
        curl_multi_select($mh, 30.0);
        echo "never\n";
    } finally {
        echo "the selector unwinds\n";
    }
});
while (!$selecting) {
    suspend();
}
echo "end\n";
exit(0);
?>
--EXPECT--
exec in X left 0 running
transfer: 1 0 done
select in S: no error
S woke by progress, not at its timeout
slow transfer: slow
no ping-pong between the two selectors
the transfer took its 300 ms
select cancelled
afterwards: after
end
the selector unwinds
