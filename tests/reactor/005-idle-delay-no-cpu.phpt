--TEST--
An idle delay(500) burns no CPU (the reactor blocks instead of spinning)
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (!function_exists('getrusage')) die('skip getrusage needed');
?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};
$limit = 50 * slow_factor(); // valgrind's own work inside the window is CPU too

function cpu_ms(): float {
    $r = getrusage();
    return ($r['ru_utime.tv_sec'] + $r['ru_stime.tv_sec']) * 1000
        + ($r['ru_utime.tv_usec'] + $r['ru_stime.tv_usec']) / 1000;
}

// Main coroutine waiting alone.
$c0 = cpu_ms();
$t0 = hrtime(true);
delay(500);
$cpu = cpu_ms() - $c0;
$wall = (hrtime(true) - $t0) / 1e6;
var_dump($wall >= 490, $cpu < $limit);
if ($cpu >= $limit) { echo "cpu used: $cpu ms\n"; }

// Main awaiting a coroutine that is itself sleeping.
$c0 = cpu_ms();
$t0 = hrtime(true);
await(spawn(fn() => delay(500)));
$cpu = cpu_ms() - $c0;
$wall = (hrtime(true) - $t0) / 1e6;
var_dump($wall >= 490, $cpu < $limit);
if ($cpu >= $limit) { echo "cpu used: $cpu ms\n"; }
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
