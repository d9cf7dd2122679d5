--TEST--
A coroutine suspends (delay/await) from inside a Fiber it started; other coroutines run meanwhile
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, suspend, delay};

$log = [];
$c = spawn(function () use (&$log) {
    $f = new Fiber(function () use (&$log) {
        $log[] = "fiber before delay";
        delay(20);
        $log[] = "fiber after delay";
        $v = Fiber::suspend("s1");
        $log[] = "fiber resumed with $v";
        $r = await(spawn(function () { delay(5); return 4; }));
        return $v * $r;
    });
    $s = $f->start();
    $log[] = "coroutine got $s";
    $f->resume(7);
    return $f->getReturn();
});
$d = spawn(function () use (&$log) {
    $log[] = "other coroutine runs while fiber sleeps";
});
var_dump(await($c));
echo implode("\n", $log), "\n";

// Two coroutines, each with its own Fiber that sleeps.
$t0 = hrtime(true);
$cs = [];
for ($i = 0; $i < 3; $i++) {
    $cs[] = spawn(function () use ($i) {
        $f = new Fiber(function () use ($i) { delay(100); return $i; });
        $f->start();
        return $f->getReturn();
    });
}
$r = [];
foreach ($cs as $c) { $r[] = await($c); }
var_dump($r);
var_dump((hrtime(true) - $t0) / 1e6 < 250 * slow_factor());
?>
--EXPECT--
int(28)
fiber before delay
other coroutine runs while fiber sleeps
fiber after delay
coroutine got s1
fiber resumed with 7
array(3) {
  [0]=>
  int(0)
  [1]=>
  int(1)
  [2]=>
  int(2)
}
bool(true)
