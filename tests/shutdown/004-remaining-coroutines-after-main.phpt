--TEST--
Coroutines still alive when the main script ends run to completion (not cancelled)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay, suspend};

spawn(function () {
    delay(200);
    echo "slow coroutine finished\n";
});
$held = spawn(function () {
    try {
        delay(100); // well after the three ticks, even under ASan on a slow host
        echo "held coroutine finished\n";
    } catch (Async\AsyncCancellation $e) {
        echo "held coroutine WRONGLY cancelled\n";
    }
});
spawn(function () {
    for ($i = 0; $i < 3; $i++) {
        echo "tick $i\n";
        suspend();
    }
    spawn(function () {
        delay(300);
        echo "spawned after main ended, finished\n";
    });
});
echo "main end\n";
?>
--EXPECT--
main end
tick 0
tick 1
tick 2
held coroutine finished
slow coroutine finished
spawned after main ended, finished
