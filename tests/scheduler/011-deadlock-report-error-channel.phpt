--TEST--
The deadlock report goes through PHP's error channel: with display_errors=0 nothing reaches the output, the log gets one warning per waiting coroutine located where it waits; the final DeadlockError is located in the script, not at "[no active file]:0"
--SKIPIF--
<?php require __DIR__ . '/../badinput/child.inc'; badinput_skip(); ?>
--FILE--
<?php
require __DIR__ . '/../badinput/child.inc';
$log = sys_get_temp_dir() . '/deadlock-log-' . getmypid() . '.log';
@unlink($log);
$code = <<<'PHP'
<?php
use function Async\{spawn, await};
$a = spawn(function () { global $b; await($b); });
$b = spawn(function () { global $a; await($a); });
echo "script ends\n";
PHP;
[$out, $exit] = run_child($code, 5.0, ['async.debug_deadlock' => 1, 'display_errors' => 0,
    'log_errors' => 1, 'error_log' => $log]);
echo "exit: $exit\n";
echo "output:\n$out";
$lines = file($log, FILE_IGNORE_NEW_LINES);
@unlink($log);
// No PCRE here: its JIT trips memcheck in the valgrind lane.
$file = sys_get_temp_dir() . '/badinput-' . getmypid() . '-1.php';
function numbers_out(string $line): string {
    $out = '';
    foreach (explode('Coroutine ', $line) as $i => $part) {
        $out .= $i === 0 ? $part : 'Coroutine N' . ltrim($part, '0123456789');
    }
    return $out;
}
foreach ($lines as $line) {
    // "[date] PHP Warning:  ... in FILE on line L"
    if (str_starts_with($line, '[')) {
        $line = substr($line, strpos($line, '] ') + 2);
    }
    /* PHP 8.5 names a closure after where it is declared: the runtime shows that name */
    $line = str_replace(['{closure:FILE:3}', '{closure:FILE:4}'], 'Closure::__invoke', str_replace($file, 'FILE', $line));
    echo numbers_out($line), "\n";
}
?>
--EXPECT--
exit: 255
output:
script ends
PHP Warning:  Deadlock detected: 2 coroutines waiting, 0 active events: every waiting coroutine is cancelled in FILE on line 3
PHP Warning:  Deadlock: Coroutine N spawned at FILE:3, suspended at FILE:3 (Closure::__invoke) waits for Coroutine N spawned at FILE:4, suspended at FILE:4 (Closure::__invoke) in FILE on line 3
PHP Warning:  Deadlock: Coroutine N spawned at FILE:4, suspended at FILE:4 (Closure::__invoke) waits for Coroutine N spawned at FILE:3, suspended at FILE:3 (Closure::__invoke) in FILE on line 4
PHP Fatal error:  Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in FILE:3
Stack trace:
#0 {main}
  thrown in FILE on line 3
