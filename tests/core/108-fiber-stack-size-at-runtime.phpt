--TEST--
fiber.stack_size raised by ini_set() at run time applies to coroutines started after it, as to a Fiber: neither a parked worker's smaller stack (in main's wait, or taken by a hand-off to a first run) nor the arena sized by the first coroutine is used for them
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
?>
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';

$script = <<<'PHP'
<?php
use function Async\{spawn, await, suspend};
/* recursion through an internal function (array_map): C stack at every level */
function r(int $n) { return $n <= 0 ? 0 : array_map(fn() => r($n - 1), [1])[0] + 1; }
$deep = (int) $argv[1];
/* the first coroutines run on 128 KiB stacks (the INI below): they size the arena, and their
 * workers park in the pool */
$small = [];
for ($i = 0; $i < 4; $i++) {
    $small[] = spawn(fn() => r(20));
}
foreach ($small as $c) {
    await($c);
}
echo "small: ", ini_get('fiber.stack_size'), "\n";
var_dump(ini_set('fiber.stack_size', '64M'));
/* main's wait starts it on a worker */
echo "in main's wait: ", await(spawn(fn() => r($deep))), "\n";
/* a coroutine spawns and awaits: the new one's first run is a hand-off from the spawner */
echo "by a hand-off: ", await(spawn(function () use ($deep) {
    $c = spawn(fn() => r($deep));
    return await($c);
})), "\n";
/* many at once, each suspended deep inside its recursion */
$many = [];
for ($i = 0; $i < 8; $i++) {
    $many[] = spawn(function () use ($deep) {
        return array_map(function () use ($deep) { $d = r($deep); suspend(); return $d; }, [1])[0];
    });
}
$sum = 0;
foreach ($many as $c) {
    $sum += await($c);
}
echo "eight at once: $sum\n";
/* a Fiber, for comparison */
$f = new Fiber(fn() => r($deep));
$f->start();
echo "Fiber: ", $f->getReturn(), "\n";
/* lowered again: the larger stacks serve */
ini_set('fiber.stack_size', '128K');
echo "lowered: ", await(spawn(fn() => r(20))), "\n";
PHP;
$file = sys_get_temp_dir() . '/async-stack-size-' . getmypid() . '.php';
file_put_contents($file, $script);
foreach ([1, 0] as $arena) {
    $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-d', "async.stack_arena=$arena",
        '-d', 'fiber.stack_size=128K', '-d', 'pcre.jit=0', $file, '4000'];
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    echo "arena $arena: exit ", proc_close($p), "\n", $out;
}
unlink($file);
?>
--EXPECT--
arena 1: exit 0
small: 128K
string(4) "128K"
in main's wait: 4000
by a hand-off: 4000
eight at once: 32000
Fiber: 4000
lowered: 20
arena 0: exit 0
small: 128K
string(4) "128K"
in main's wait: 4000
by a hand-off: 4000
eight at once: 32000
Fiber: 4000
lowered: 20
