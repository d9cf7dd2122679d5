--TEST--
phpredis: 8 coroutines whose BLPOP (timeout 1 s) gets nothing all time out together after about 1 s
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('redis', ['redis']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
igbinary
redis
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await};

$srv = servers_start_redis();
$n = 8;
$t0 = hrtime(true);
$cs = [];
$ticks = 0;
for ($i = 0; $i < $n; $i++) {
    $cs[$i] = spawn(function () use ($srv, $i) {
        $r = new Redis();
        $r->connect('127.0.0.1', $srv['port'], 2.0);
        $t = hrtime(true);
        $got = $r->blPop(["empty:$i"], 1);
        // The connection is still usable after the timed-out command.
        return [$got, ms_since($t), $r->set("k$i", "v$i") && $r->get("k$i") === "v$i"];
    });
}
// And something else keeps running meanwhile.
$ticker = spawn(function () use (&$ticks) {
    for ($i = 0; $i < 10; $i++) {
        Async\delay(50);
        $ticks++;
    }
});
$ok = 0;
foreach ($cs as $i => $c) {
    [$got, $ms, $usable] = await($c);
    if (($got === [] || $got === null || $got === false) && $ms >= 900 && $usable) {
        $ok++;
    } else {
        echo "coroutine $i: ", json_encode($got), " after $ms ms, usable: ", json_encode($usable), "\n";
    }
}
await($ticker);
$total = ms_since($t0);
echo "$ok of $n timed out\n";
echo "ticks: $ticks\n";
// One after the other: 8 s.
var_dump($total >= 900, $total < 1600 * slow_factor());
if ($total >= 1600 * slow_factor()) echo "took $total ms\n";
?>
--EXPECT--
8 of 8 timed out
ticks: 10
bool(true)
bool(true)
