--TEST--
Cancelling a coroutine waiting in curl_exec() or curl_multi_select() aborts at once, the handle stays usable; a throwing callback ends its transfer and the exception leaves curl_exec() in its own coroutine
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
use Async\AsyncCancellation;
use function Async\{spawn, await, await_all, delay, suspend};

$server = http_fixture_start();
$url = $server['url'];

/* 1. cancel in curl_exec(): the request hangs on the server; the cancel ends it at once */
$ch = http_fixture_handle("$url/hang");
$started = false;
$co = spawn(function () use ($ch, &$started) {
    $started = true;
    return curl_exec($ch);
});
while (!$started) {
    suspend();
}
delay(50); // the request is on the wire
$t0 = hrtime(true);
$co->cancel(new AsyncCancellation('enough'));
try {
    await($co);
    echo "not cancelled\n";
} catch (AsyncCancellation $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$cancelMs = ms_since($t0);
echo $cancelMs < 1000 * slow_factor() ? "aborted at once\n" : "abort took $cancelMs ms\n";
echo curl_errno($ch), ' ', curl_error($ch), "\n";
/* the same handle works again, in a coroutine and outside */
curl_setopt($ch, CURLOPT_URL, "$url/delay?ms=10&body=again");
echo await(spawn(fn() => curl_exec($ch))), ' ', curl_errno($ch), "\n";
curl_setopt($ch, CURLOPT_URL, "$url/delay?ms=0&body=plain");
echo curl_exec($ch), "\n";

/* 2. cancel in curl_multi_select() */
$mh = curl_multi_init();
$hang = http_fixture_handle("$url/hang");
curl_multi_add_handle($mh, $hang);
$selecting = false;
$co = spawn(function () use ($mh, &$selecting) {
    do {
        curl_multi_exec($mh, $active);
        $selecting = true;
        curl_multi_select($mh, 30.0);
    } while ($active);
});
while (!$selecting) {
    suspend();
}
delay(20);
$t0 = hrtime(true);
$co->cancel();
try {
    await($co);
} catch (AsyncCancellation $e) {
    echo "multi select cancelled\n";
}
echo ms_since($t0) < 1000 * slow_factor() ? "at once\n" : "slow\n";
curl_multi_remove_handle($mh, $hang);

/* 3. a write callback throws: the exception leaves curl_exec() of its coroutine only, the
 * transfer ends, the others finish untouched */
$tasks = [];
$tasks[] = spawn(function () use ($url) {
    $ch = http_fixture_handle("$url/slow?chunks=5&ms=20", [
        CURLOPT_RETURNTRANSFER => false,
        CURLOPT_WRITEFUNCTION => function ($ch, $data) {
            throw new RuntimeException('no thanks');
        },
    ]);
    try {
        curl_exec($ch);
        return 'no exception';
    } catch (RuntimeException $e) {
        $caught = $e->getMessage();
    }
    $info = [$caught, curl_errno($ch), curl_error($ch)];
    /* usable again */
    curl_setopt($ch, CURLOPT_WRITEFUNCTION, null);
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    curl_setopt($ch, CURLOPT_URL, "$url/delay?ms=0&body=fine");
    $info[] = curl_exec($ch);
    return $info;
});
for ($i = 0; $i < 2; $i++) {
    $tasks[] = spawn(function () use ($url, $i) {
        $ch = http_fixture_handle("$url/slow?chunks=5&ms=20");
        return strlen(curl_exec($ch));
    });
}
[$results, $errors] = await_all($tasks);
echo json_encode($results), "\n";
var_dump($errors);
?>
--EXPECTF--
Async\AsyncCancellation: enough
aborted at once
42 Operation was aborted by an application callback
again 0
plain
multi select cancelled
at once
[["no thanks",23,"Failure writing output to destination%S","fine"],5120,5120]
array(0) {
}
