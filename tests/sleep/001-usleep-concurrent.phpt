--TEST--
usleep() inside coroutines suspends only the coroutine: three 100 ms sleeps run concurrently
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await};

$t0 = hrtime(true);
$log = [];
$cs = [];
for ($i = 0; $i < 3; $i++) {
    $cs[] = spawn(function () use ($i, &$log) {
        $log[] = "start $i";
        $t = hrtime(true);
        $r = usleep(100000);
        $log[] = "end $i";
        return [$r, (hrtime(true) - $t) / 1e6];
    });
}
foreach ($cs as $c) {
    [$r, $ms] = await($c);
    var_dump($r, $ms >= 99);
}
$total = (hrtime(true) - $t0) / 1e6;
var_dump($total < 250 * slow_factor());
echo implode(", ", $log), "\n";
?>
--EXPECT--
NULL
bool(true)
NULL
bool(true)
NULL
bool(true)
bool(true)
start 0, start 1, start 2, end 0, end 1, end 2
