--TEST--
time_nanosleep() and time_sleep_until() inside coroutines are concurrent and return true
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await};

$t0 = hrtime(true);
$cs = [];
for ($i = 0; $i < 3; $i++) {
    $cs[] = spawn(function () {
        $t = hrtime(true);
        $r = time_nanosleep(0, 100000000);
        return [$r, (hrtime(true) - $t) / 1e6 >= 99];
    });
}
foreach ($cs as $c) { var_dump(await($c)); }
var_dump((hrtime(true) - $t0) / 1e6 < 250 * slow_factor());

$t0 = hrtime(true);
$cs = [];
for ($i = 0; $i < 3; $i++) {
    $cs[] = spawn(function () {
        $target = microtime(true) + 0.1;
        $r = time_sleep_until($target);
        return [$r, microtime(true) >= $target - 0.001];
    });
}
foreach ($cs as $c) { var_dump(await($c)); }
var_dump((hrtime(true) - $t0) / 1e6 < 250 * slow_factor());

// Mixed: seconds + nanoseconds.
$c = spawn(function () { $t = hrtime(true); time_nanosleep(0, 30000000); return (hrtime(true) - $t) / 1e6; });
$ms = await($c);
var_dump($ms >= 29);
?>
--EXPECT--
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
bool(true)
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
bool(true)
bool(true)
