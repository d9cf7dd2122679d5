--TEST--
C stacks from the arena: a coroutine that recurses past its C stack ends the process with a clear fatal error (a guard page, or the canary under the stack when it has no guard of its own); below the limit nothing happens; from 8.3 PHP's own stack limit (zend.max_allowed_stack_size) stops it first with an Error, as in a Fiber
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (!ini_get('async.stack_arena')) die('skip the stack arena is off');
if (str_contains(file_get_contents('/proc/self/maps'), 'libasan')) die('skip ASan reports the overflow itself (stack-buffer-underflow into the next stack)');
?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
/* C recursion PHP does not bound (var_export() of nested arrays) uses the C stack at every level;
 * recursion through PHP calls (array_map) is bounded by PHP 8.3+'s own limit, as in a Fiber */
$script = <<<'PHP'
<?php
use function Async\{spawn, await, delay};
function nested(int $max) { $a = []; for ($i = 0; $i < $max; $i++) { $a = [$a]; } return strlen(var_export($a, true)) > 0 ? $max : -1; }
function calls(int $n, int $max) { return $n >= $max ? $n : array_map(fn() => calls($n + 1, $max), [1])[0]; }
function r(int $n, int $max) { return ($GLOBALS['argv'][2] ?? '') === 'calls' ? calls($n, $max) : nested($max); }
$depth = (int) $argv[1];
$first = [];
for ($i = 0; $i < 6; $i++) { // hold the stacks below the deep one
    $first[] = spawn(fn() => delay(50));
}
$deep = spawn(function () use ($depth) { $d = r(0, $depth); delay(1); return $d; });
$d = await($deep);
echo "depth $d\n";
foreach ($first as $f) { await($f); }
echo "end\n";
PHP;
$file = sys_get_temp_dir() . '/async-overflow-' . getmypid() . '.php';
file_put_contents($file, $script);
function run(string $file, array $ini, int $depth, bool $php_limit = false): string
{
    $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . async_module_path()];
    foreach ($ini as $k => $v) {
        array_push($cmd, '-d', "$k=$v");
    }
    array_push($cmd, $file, (string) $depth);
    if ($php_limit) {
        $cmd[] = 'calls';
    }
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $status = proc_close($p);
    $line = "exit $status: " . trim(preg_replace('/coroutine \d+ spawned at \S+:\d+/', 'coroutine N spawned at F:L', $out));
    if (!$php_limit) {
        echo $line, "\n";
    }
    return $line;
}
/* a sweep of depths around the limit: each run ends cleanly or with the fatal error, never a crash
 * (the frames an overflow lays over the canary zone differ at every depth; one word was once left
 * unwritten on a debug build, and the overflow ran on unseen). It comes first: under the valgrind
 * lane every child writes the test's one log file, where a child that overflows on purpose is
 * reported, and the last child, which stays within its stack, leaves the log as the test left it. */
$bad = [];
for ($depth = 30; $depth <= 1500; $depth += 47) {
    $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-d', 'pcre.jit=0',
        '-d', 'async.stack_guards=0', '-d', 'fiber.stack_size=64K', $file, (string) $depth];
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $status = proc_close($p);
    $clean = ($status === 0 && $out === "depth $depth\nend\n")
        || ($status === 255 && str_contains($out, 'PHP Fatal error:  C stack overflow in '));
    if (!$clean) {
        $bad[] = "$depth: exit $status: " . trim($out);
    }
}
echo $bad ? implode("\n", $bad) . "\n" : "sweep: every depth ended cleanly\n";
/* guards on (the default): the stack has a guard page of its own (64 KiB stacks keep the nested
 * array small: var_export()'s text grows with the square of the depth) */
run($file, ['fiber.stack_size' => '64K'], 2000);
/* no guard of its own (async.stack_guards=0): the recursion runs through the stack below into the chunk's guard */
run($file, ['async.stack_guards' => 0, 'fiber.stack_size' => '64K'], 3000);
/* no guard, 64 KiB stacks, a recursion that needs more than one of them (~100 KiB here, ~200 KiB
 * on a debug build) but less than the six below, then returns: the canary */
run($file, ['async.stack_guards' => 0, 'fiber.stack_size' => '64K'], 400);
/* within the stack: nothing */
run($file, ['async.stack_guards' => 0, 'fiber.stack_size' => '64K'], 20);
/* recursion through PHP calls: from 8.3 PHP's own limit ends it with an Error (uncaught here),
 * the coroutine's stack bounds being the engine's as a Fiber's are; 8.2 has no such limit */
$limited = run($file, [], 1000000, true);
echo 'PHP\'s own limit: ', PHP_VERSION_ID < 80300 ? 'none before 8.3'
    : (preg_match("/^exit 255: (PHP )?Fatal error: +Uncaught Error: Maximum call stack size of \\d+ bytes/", $limited)
        ? "an Error in the coroutine" : "BAD: $limited"), "\n";
unlink($file);
?>
--EXPECTF--
sweep: every depth ended cleanly
exit 255: PHP Fatal error:  C stack overflow in a coroutine (it ran into a guard page): it needed more than its stack (fiber.stack_size); the process stops, since the memory next to that stack may hold another coroutine's frames
exit 255: PHP Fatal error:  C stack overflow in a coroutine (it ran into a guard page): it needed more than its stack (fiber.stack_size); the process stops, since the memory next to that stack may hold another coroutine's frames
exit 255: PHP Fatal error:  C stack overflow in coroutine N spawned at F:L (its canary was overwritten): it needed more than its stack (fiber.stack_size); the process stops, since the memory next to that stack may hold another coroutine's frames
exit 0: depth 20
end
PHP's own limit: %r(none before 8\.3|an Error in the coroutine)%r
