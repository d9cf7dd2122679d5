--TEST--
An uncaught exception in the main script triggers graceful shutdown: pending coroutines are cancelled, not run to completion
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
// Run in a child so the checks do not depend on the relative order of the fatal error message,
// the cancellations and the shutdown functions.
$child = __DIR__ . '/008-child.inc';
file_put_contents($child, '<?php
register_shutdown_function(function () { echo "[shutdown function]\n"; });
Async\spawn(function () {
    try {
        Async\delay(200);
        echo "[sleeper ran to completion]\n";
    } catch (Async\AsyncCancellation $e) {
        echo "[sleeper cancelled: ", $e->getMessage(), "]\n";
    }
});
Async\spawn(function () { echo "[queued coroutine ran]\n"; });
Async\delay(1);
Async\spawn(function () { echo "[never-started coroutine ran]\n"; });
throw new Exception("main uncaught");
');
require_once __DIR__ . '/../inc/bounds.inc';
$so = async_module_path();
$p = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . $so, '-d', 'async.debug_deadlock=0', '-d', 'display_errors=1', $child],
    [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
fclose($pipes[1]);
fclose($pipes[2]);
$rc = proc_close($p);

echo "exit code: $rc\n";
foreach ([
    'Fatal error: Uncaught Exception: main uncaught',
    '[queued coroutine ran]',          // it started before the exception (main delayed)
    '[sleeper cancelled: Graceful shutdown]',
    '[sleeper ran to completion]',
    '[never-started coroutine ran]',
    '[shutdown function]',
] as $needle) {
    echo str_pad($needle, 45), ": ", substr_count($out, $needle), "\n";
}
?>
--CLEAN--
<?php @unlink(__DIR__ . '/008-child.inc'); ?>
--EXPECT--
exit code: 255
Fatal error: Uncaught Exception: main uncaught: 1
[queued coroutine ran]                       : 1
[sleeper cancelled: Graceful shutdown]       : 1
[sleeper ran to completion]                  : 0
[never-started coroutine ran]                : 0
[shutdown function]                          : 1
