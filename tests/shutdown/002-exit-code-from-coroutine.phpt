--TEST--
exit(N) inside a coroutine sets the process exit code (checked in a child process)
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (!function_exists('proc_open')) die('skip proc_open needed');
require __DIR__ . '/../inc/bounds.inc';
if (async_module_path() === null) die('skip async module path unknown');
?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require_once __DIR__ . '/../inc/bounds.inc';
$so = async_module_path();
$child = __DIR__ . '/002-child.inc';

$scripts = [
    'exit in fire-and-forget after main ended' => '<?php
Async\spawn(function () { echo "coroutine\n"; exit(7); });
register_shutdown_function(function () { echo "shutdown\n"; });
echo "main end\n";',
    'exit while main awaits' => '<?php
$c = Async\spawn(function () { Async\delay(5); exit(9); });
register_shutdown_function(function () { echo "shutdown\n"; });
Async\await($c);
echo "not reached\n";',
    'exit string' => '<?php
Async\spawn(function () { exit("bye\n"); });
Async\delay(100);
echo "not reached\n";',
    'exit() without code' => '<?php
Async\spawn(function () { Async\delay(1); exit(); });
Async\delay(1000);
echo "not reached\n";',
    'exit(0) after an unrelated coroutine failed and was awaited' => '<?php
$c = Async\spawn(function () { throw new Exception("handled"); });
try { Async\await($c); } catch (Exception $e) { echo "caught\n"; }
Async\spawn(function () { exit(0); });
echo "main end\n";',
];

foreach ($scripts as $label => $code) {
    file_put_contents($child, $code);
    $p = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . $so, '-d', 'async.debug_deadlock=0', $child],
        [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    $rc = proc_close($p);
    echo "== $label: exit code $rc\n", $out, $err;
}
?>
--CLEAN--
<?php @unlink(__DIR__ . '/002-child.inc'); ?>
--EXPECT--
== exit in fire-and-forget after main ended: exit code 7
main end
coroutine
shutdown
== exit while main awaits: exit code 9
shutdown
== exit string: exit code 0
bye
== exit() without code: exit code 0
== exit(0) after an unrelated coroutine failed and was awaited: exit code 0
caught
main end
