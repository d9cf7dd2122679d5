--TEST--
curl outside coroutines is stock: before the scheduler starts, in a destructor on PHP 8.2/8.3 (which cannot switch there: it blocks as stock, the ticker stands still) and in a shutdown function; from PHP 8.4 curl in a destructor suspends only its coroutine (the ticker moves)
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

/* registered before the fixture's own shutdown function, which stops the server */
$url = null;
register_shutdown_function(function () use (&$url) {
    $ch = http_fixture_handle("$url/delay?ms=10&body=at-shutdown");
    echo 'shutdown: ', curl_exec($ch), "\n";
});
$server = http_fixture_start();
$url = $server['url'];

/* before any coroutine: plain blocking curl, curl_multi too */
$ch = http_fixture_handle("$url/delay?ms=20&body=top");
echo curl_exec($ch), ' ', curl_errno($ch), "\n";
$mh = curl_multi_init();
curl_multi_add_handle($mh, $ch);
do {
    curl_multi_exec($mh, $active);
    if ($active) {
        curl_multi_select($mh, 1.0);
    }
} while ($active);
echo curl_multi_getcontent($ch), "\n";
curl_multi_remove_handle($mh, $ch);

class FetchOnDestruct
{
    public function __construct(private string $url) {}
    public function __destruct()
    {
        $ch = http_fixture_handle($this->url);
        echo 'destructor: ', curl_exec($ch), "\n";
    }
}

$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(5);
        $ticks++;
    }
});
await(spawn(function () use ($url, &$ticks) {
    delay(20);
    $before = $ticks;
    $o = new FetchOnDestruct("$url/delay?ms=150&body=from-destructor");
    unset($o);
    /* PHP 8.2 and 8.3 cannot switch inside a destructor: the request blocked as stock. From PHP 8.4
     * the destructor's coroutine suspends on the transfer, and the ticker runs meanwhile. */
    if (PHP_VERSION_ID < 80400) {
        echo $ticks === $before ? "8.2-8.3: blocked as stock\n" : "8.2-8.3: BAD, ticks moved: " . ($ticks - $before) . "\n";
    } else {
        echo $ticks > $before ? "8.4+: suspended, the ticker moved\n" : "8.4+: BAD, blocked: the ticker stood still\n";
    }
}));
$done = true;
await($ticker);

echo "end\n";
?>
--EXPECTF--
top 0
top
destructor: from-destructor
%r(8\.2-8\.3: blocked as stock|8\.4\+: suspended, the ticker moved)%r
end
shutdown: at-shutdown
