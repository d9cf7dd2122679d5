--TEST--
Timers fire on time after long CPU work (no stale cached loop time)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

function busy(int $ms) {
    $t = hrtime(true);
    while (hrtime(true) - $t < $ms * 1e6) {}
}

// Start the loop first so it has a cached time.
delay(1);

// In a coroutine.
$c = spawn(function () {
    busy(50);
    $t = hrtime(true);
    delay(30);
    return (hrtime(true) - $t) / 1e6;
});
$ms = await($c);
var_dump($ms >= 29);
if ($ms < 29) { echo "delay(30) took $ms ms\n"; }

// In main.
busy(50);
$t = hrtime(true);
delay(30);
$ms = (hrtime(true) - $t) / 1e6;
var_dump($ms >= 29);
if ($ms < 29) { echo "delay(30) took $ms ms\n"; }

// usleep() after busy work.
$c = spawn(function () {
    busy(50);
    $t = hrtime(true);
    usleep(30000);
    return (hrtime(true) - $t) / 1e6;
});
$ms = await($c);
var_dump($ms >= 29);

// Busy work in one coroutine while another has a pending timer: the timer's coroutine
// still sleeps at least its full duration measured from its own start.
$sleeper = spawn(function () {
    $t = hrtime(true);
    delay(20);
    return (hrtime(true) - $t) / 1e6;
});
$busy = spawn(function () { busy(60); });
var_dump(await($sleeper) >= 19);
await($busy);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
