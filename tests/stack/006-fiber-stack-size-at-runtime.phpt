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
[, $deep, $how] = $argv;
/* the first coroutines run on 128 KiB stacks (the INI below): they size the arena, and their
 * four workers (alive at once: each suspends) park in the pool */
$small = [];
for ($i = 0; $i < 4; $i++) {
    $small[] = spawn(function () { suspend(); return r(20); });
}
foreach ($small as $c) {
    await($c);
}
echo ini_get('fiber.stack_size'), ', ';
if ($how === 'main') {
    /* main's wait starts it on a worker */
    ini_set('fiber.stack_size', '64M');
    echo "in main's wait: ", await(spawn(fn() => r($deep))), "\n";
} elseif ($how === 'handoff') {
    /* raised inside a coroutine, which then spawns and awaits: the new one's first run would be
     * a hand-off to a parked worker */
    echo "by a hand-off: ", await(spawn(function () use ($deep) {
        ini_set('fiber.stack_size', '64M');
        $c = spawn(fn() => r($deep));
        return await($c);
    })), "\n";
} else {
    /* many at once, each suspended deep inside its recursion */
    ini_set('fiber.stack_size', '64M');
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
}
PHP;
$file = sys_get_temp_dir() . '/async-stack-size-' . getmypid() . '.php';
file_put_contents($file, $script);
foreach ([1, 0] as $arena) {
    foreach (['main', 'handoff', 'many'] as $how) {
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-d', "async.stack_arena=$arena",
            '-d', 'fiber.stack_size=128K', '-d', 'pcre.jit=0', $file, '4000', $how];
        $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        echo "arena $arena: exit ", proc_close($p), ": ", $out;
    }
}
unlink($file);
?>
--EXPECT--
arena 1: exit 0: 128K, in main's wait: 4000
arena 1: exit 0: 128K, by a hand-off: 4000
arena 1: exit 0: 128K, eight at once: 32000
Fiber: 4000
lowered: 20
arena 0: exit 0: 128K, in main's wait: 4000
arena 0: exit 0: 128K, by a hand-off: 4000
arena 0: exit 0: 128K, eight at once: 32000
Fiber: 4000
lowered: 20
