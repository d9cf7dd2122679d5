--TEST--
Main's wait with work queued (await(spawn()) and the like) runs the loop's first pass inline: results and errors come back, a hand-off, a suspend()ing child with a sibling, timers, nested waits and exit(), an unhandled error and a deadlock in the awaited coroutine all go as through the loop
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, suspend, delay};

$log = [];

// A result and an error, the queue holding just the awaited coroutine.
echo "result: ", await(spawn(fn(int $x) => $x * 2, 21)), "\n";
try {
    await(spawn(function () { throw new LogicException("from the child"); }));
} catch (LogicException $e) {
    echo "error: ", $e->getMessage(), "\n";
}

// The child spawns and awaits a grandchild: a hand-off inside main's first pass.
echo "nested: ", await(spawn(function () use (&$log) {
    $log[] = "child start";
    $g = spawn(function () use (&$log) { $log[] = "grandchild"; return 5; });
    $r = await($g);
    $log[] = "child end";
    return $r + 1;
})), " (", implode(", ", $log), ")\n";

// Two queued at main's wait: the awaited one and a sibling spawned before it, interleaving by suspend().
$log = [];
$sibling = spawn(function () use (&$log) {
    for ($i = 0; $i < 3; $i++) { $log[] = "s$i"; suspend(); }
});
$c = spawn(function () use (&$log) {
    for ($i = 0; $i < 3; $i++) { $log[] = "c$i"; suspend(); }
    return "done";
});
echo "interleaved: ", await($c), " (", implode(" ", $log), ")\n";
await($sibling);

// The child suspend()s while a coroutine it spawned runs: order as the loop's batches give it.
$log = [];
echo "spinning: ", await(spawn(function () use (&$log) {
    $x = spawn(function () use (&$log) { $log[] = "x0"; suspend(); $log[] = "x1"; });
    for ($i = 0; $i < 3; $i++) { $log[] = "c$i"; suspend(); }
    await($x);
    return "ok";
})), " (", implode(" ", $log), ")\n";

// A child waiting on a timer: main's first pass ends with the queue empty, the loop waits.
$t0 = hrtime(true);
echo "timer: ", await(spawn(function () { delay(20); return "woke"; })), ", after >= 19 ms: ",
    var_export(ms_since($t0) >= 19, true), "\n";

// Many in a row, each awaited at once: nothing is left behind.
$sum = 0;
for ($i = 0; $i < 1000; $i++) {
    $sum += await(spawn(fn() => $i));
}
echo "sum: $sum\n";

// The ends that go on in the loop, each in a process of its own.
$cases = [
    'exit' => '
        register_shutdown_function(function () { echo "shutdown function\n"; });
        try {
            await(spawn(function () { echo "child exits\n"; exit(7); }));
        } finally {
            echo "main finally: not run by exit()\n";
        }
        echo "not reached\n";',
    'unhandled' => '
        $c = spawn(function () {
            spawn(function () { throw new RuntimeException("nobody awaits me"); });
            try {
                suspend();
                suspend();
                echo "not reached\n";
            } catch (Async\AsyncCancellation $e) {
                echo "child: ", $e->getMessage(), "\n";
            }
        });
        try {
            await($c);
            echo "main resumed with nothing\n";
        } catch (Throwable $e) {
            echo "main: ", get_class($e), ": ", $e->getMessage(), "\n";
        }',
    'deadlock' => '
        $ch = new Async\Channel();
        try {
            await(spawn(function () use ($ch) {
                try {
                    $ch->recv();
                } catch (Async\AsyncCancellation $e) {
                    echo "child: ", $e->getMessage(), "\n";
                }
            }));
            echo "main: awaited\n";
        } catch (Async\AsyncCancellation $e) {
            echo "main: ", $e->getMessage(), "\n";
        }',
];
foreach ($cases as $name => $body) {
    $file = sys_get_temp_dir() . "/async-first-pass-$name-" . getmypid() . '.php';
    file_put_contents($file, "<?php\nuse function Async\\{spawn, await, suspend};\n$body\n");
    $p = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-d', 'display_errors=1',
        '-d', 'async.debug_deadlock=0', $file],
        [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $out = preg_replace('~ in /\S+:\d+\n(Stack trace:\n(#\d+ .*\n)*  thrown in \S+ on line \d+\n)?~', " ...\n", $out);
    echo "--- $name: exit ", proc_close($p), "\n", $out;
    unlink($file);
}
?>
--EXPECTF--
result: 42
error: from the child
nested: 6 (child start, grandchild, child end)
interleaved: done (s0 c0 s1 c1 s2 c2)
spinning: ok (c0 x0 c1 x1 c2)
timer: woke, after >= 19 ms: true
sum: 499500
--- exit: exit 7
child exits
shutdown function
--- unhandled: exit 0
child: Graceful shutdown
main: RuntimeException: nobody awaits me
--- deadlock: exit 255
child: Deadlock detected
main: Deadlock detected

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting ...
