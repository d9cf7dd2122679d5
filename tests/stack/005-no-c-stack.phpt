--TEST--
No C stack for a coroutine: it ends with an AsyncException that says why (the OS's error from the arena's mmap; without the arena, the fiber API's own exception as previous), and nothing stays thrown in the scheduler's context for the next awaiter
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, suspend};

$script = <<<'PHP'
<?php
use function Async\{spawn, await, suspend};
$cs = [];
for ($i = 0; $i < 3; $i++) {
    $cs[] = spawn(function () use ($i) { suspend(); return $i; });
}
$ok = spawn(fn() => 'main goes on');
foreach ($cs as $i => $c) {
    try {
        var_dump(await($c));
    } catch (Throwable $e) {
        $p = $e->getPrevious();
        echo "$i: ", get_class($e), ': ', $e->getMessage(), $p ? ' <- ' . get_class($p) . ': ' . $p->getMessage() : '', "\n";
    }
}
try {
    echo await($ok), "\n";
} catch (Throwable $e) {
    echo 'ok: ', get_class($e), "\n";
}
echo "end\n";
PHP;
$file = sys_get_temp_dir() . '/async-no-c-stack-' . getmypid() . '.php';
file_put_contents($file, $script);
function run(string $file, array $ini): void
{
    $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . async_module_path()];
    foreach ($ini as $k => $v) {
        array_push($cmd, '-d', "$k=$v");
    }
    $cmd[] = $file;
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    echo "exit ", proc_close($p), "\n", $out;
}
/* the arena: a chunk of stacks too large for any address space (the mmap fails at once: ENOMEM;
 * EINVAL under valgrind) */
run($file, ['fiber.stack_size' => '200000G']);
/* no arena: the fiber API refuses a stack below its minimum, and throws */
run($file, ['async.stack_arena' => 0, 'fiber.stack_size' => 1]);
/* either way, within the limits nothing changes */
run($file, ['async.stack_arena' => 0]);
unlink($file);
?>
--EXPECTF--
exit 0
0: Async\AsyncException: Cannot allocate a C stack for the coroutine (mmap failed: %s; see vm.max_map_count and fiber.stack_size)
1: Async\AsyncException: Cannot allocate a C stack for the coroutine (mmap failed: %s; see vm.max_map_count and fiber.stack_size)
2: Async\AsyncException: Cannot allocate a C stack for the coroutine (mmap failed: %s; see vm.max_map_count and fiber.stack_size)
ok: Async\AsyncException
end
exit 0
0: Async\AsyncException: Cannot allocate a C stack for the coroutine (the previous exception says why; see vm.max_map_count and fiber.stack_size) <- Exception: Fiber stack size is too small, it needs to be at least %d bytes
1: Async\AsyncException: Cannot allocate a C stack for the coroutine (the previous exception says why; see vm.max_map_count and fiber.stack_size) <- Exception: Fiber stack size is too small, it needs to be at least %d bytes
2: Async\AsyncException: Cannot allocate a C stack for the coroutine (the previous exception says why; see vm.max_map_count and fiber.stack_size) <- Exception: Fiber stack size is too small, it needs to be at least %d bytes
ok: Async\AsyncException
end
exit 0
int(0)
int(1)
int(2)
main goes on
end
