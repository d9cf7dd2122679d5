--TEST--
Deep recursion inside coroutines: VM stack pages grow beyond async.vm_stack_size; C-level recursion works
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
async.vm_stack_size=1024
; Under Xdebug every PHP call also nests on the C stack (a plain Fiber crashes at this depth with
; the default size too): room for the Xdebug lane; without Xdebug it changes nothing.
fiber.stack_size=16M
--FILE--
<?php
use function Async\{spawn, await, delay, suspend};

function depth(int $n): int {
    if ($n === 0) { suspend(); return 0; }
    return 1 + depth($n - 1);
}
$cs = [];
for ($i = 0; $i < 5; $i++) { $cs[] = spawn('depth', 20000); }
foreach ($cs as $c) { var_dump(await($c)); }

// Recursion through internal callbacks uses the coroutine's C stack.
function cdepth(int $n): int {
    if ($n === 0) { delay(1); return 0; }
    return array_sum(array_map(fn($x) => 1 + cdepth($n - 1), [0]));
}
var_dump(await(spawn('cdepth', 500)));
var_dump(ini_get('async.vm_stack_size'));
?>
--EXPECT--
int(20000)
int(20000)
int(20000)
int(20000)
int(20000)
int(500)
string(4) "1024"
