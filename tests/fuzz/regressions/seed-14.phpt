--TEST--
fuzz regression: seed 14 - main waiting in a suspend()/delay(0) loop must not starve timers
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.schedule_seed=14
async.debug_deadlock=0
--FILE--
<?php
// Minimized from seed 14 of an early version of tests/fuzz/generate.php (also seeds 19, 31, 38,
// 49, 52, 55, 60; the generator has changed since, so those seeds now give other programs):
// the main flow waits in `while (!started(K)) suspend();` for a coroutine that raises the flag
// only after a timer (a delay(1) before it parks, or a delay(1) inside a Fiber). The program hung:
// while main is the only runnable coroutine, every scheduler pass hands main its turn before the
// reactor is polled, so no timer ever fires. A deadline turns the hang into a FAIL line here.
use function Async\{spawn, await, suspend, delay};

$flags = [];
$sum = 0;
foreach (['suspend', 'delay0'] as $i => $how) {
    $c = spawn(function () use (&$flags, $i) {
        delay(1);
        $flags[$i] = true;
        return $i + 1;
    });
    $deadline = microtime(true) + 3;
    while (!isset($flags[$i]) && microtime(true) < $deadline) {
        $how === 'suspend' ? suspend() : delay(0);
    }
    if (!isset($flags[$i])) {
        echo "FAIL timer starved while main spun on $how\n";
        $c->cancel();
        continue;
    }
    $sum += await($c);
}
echo "OK $sum\n";
?>
--EXPECT--
OK 3
