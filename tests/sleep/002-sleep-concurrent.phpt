--TEST--
sleep() inside coroutines is concurrent and returns 0
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
    $cs[] = spawn(fn() => sleep(1));
}
foreach ($cs as $c) {
    var_dump(await($c));
}
$total = (hrtime(true) - $t0) / 1e6;
var_dump($total >= 990, $total < 2500 * slow_factor());
// sleep(0) in a coroutine returns 0 at once.
var_dump(await(spawn(fn() => sleep(0))));
?>
--EXPECT--
int(0)
int(0)
int(0)
bool(true)
bool(true)
int(0)
