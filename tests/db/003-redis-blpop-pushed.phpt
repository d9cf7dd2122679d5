--TEST--
phpredis: 8 coroutines block in BLPOP on their own keys; another connection pushes; each gets its value at once
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
use function Async\{spawn, await, delay};

$srv = servers_start_redis();
$n = 8;
$connect = function () use ($srv) {
    $r = new Redis();
    $r->connect('127.0.0.1', $srv['port'], 2.0);
    return $r;
};

$t0 = hrtime(true);
$poppers = [];
for ($i = 0; $i < $n; $i++) {
    $poppers[$i] = spawn(function () use ($connect, $i) {
        return $connect()->blPop(["list:$i"], 1);
    });
}
$pusher = spawn(function () use ($connect, $n) {
    $r = $connect();
    // Push only once every popper is really blocked in the server (no timing guess).
    for ($tries = 0; $tries < 500; $tries++) {
        if ((int) $r->info('clients')['blocked_clients'] === $n) {
            break;
        }
        delay(2);
    }
    for ($i = $n - 1; $i >= 0; $i--) {
        $r->rPush("list:$i", "value $i");
    }
    return $tries < 500;
});
var_dump(await($pusher));
$ok = 0;
foreach ($poppers as $i => $c) {
    $got = await($c);
    if ($got === ["list:$i", "value $i"]) {
        $ok++;
    } else {
        echo "popper $i: ", json_encode($got), "\n";
    }
}
$total = ms_since($t0);
echo "$ok of $n got their value\n";
// Well before the 1 s BLPOP timeout: nobody waited for anybody else.
var_dump($total < 800 * slow_factor());
if ($total >= 800 * slow_factor()) echo "took $total ms\n";
?>
--EXPECT--
bool(true)
8 of 8 got their value
bool(true)
