--TEST--
Coroutines spawning coroutines, several levels deep
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay, current_coroutine};

function tree(int $depth): int {
    if ($depth === 0) {
        delay(1);
        return 1;
    }
    $l = spawn('tree', $depth - 1);
    $r = spawn('tree', $depth - 1);
    return await($l) + await($r) + 1;
}
var_dump(await(spawn('tree', 6)));

// A child outlives its parent and still runs.
$log = [];
$parent = spawn(function () use (&$log) {
    spawn(function () use (&$log) {
        delay(10);
        $log[] = "child done";
    });
    $log[] = "parent done";
});
await($parent);
$log[] = "main after parent";
delay(50);
echo implode("\n", $log), "\n";

// Each coroutine sees itself as current; a child's current differs from the parent.
$p = spawn(function () {
    $me = current_coroutine();
    $child = spawn(fn() => current_coroutine());
    $cc = await($child);
    return [$me === current_coroutine(), $cc === $child, $cc !== $me];
});
var_dump(await($p));
?>
--EXPECT--
int(127)
parent done
main after parent
child done
array(3) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  bool(true)
}
