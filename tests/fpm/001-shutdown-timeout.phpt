--TEST--
php-fpm with pm.max_children = 1: a request that leaves a never-ending coroutine is answered, its coroutine is cancelled then abandoned after async.shutdown_timeout, and the same worker serves the next request
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; if ($r = fpm_skip_reason()) die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';

$fpm = fpm_start(['async.shutdown_timeout' => 300, 'display_errors' => 0], [
    'leave.php' => <<<'PHP'
<?php
use function Async\{spawn, delay};
spawn(function () {
    try {
        delay(1000000);
    } catch (Async\AsyncCancellation $e) {
        error_log("cancelled: " . $e->getMessage());
        delay(1000000); // stubborn: it waits on, and is abandoned after the grace
    }
});
echo "first answered by ", getmypid();
PHP,
    'next.php' => <<<'PHP'
<?php
echo "next served by ", getmypid();
PHP,
]);

[$body, $seconds, $exit] = fpm_request($fpm, 'leave.php');
// No PCRE in tests (its JIT trips memcheck in the valgrind lane).
$pid = fn(string $body) => (int) substr($body, strrpos($body, ' ') + 1);
echo "first: exit $exit, ", rtrim($body, '0123456789'), "PID\n";
$first_pid = $pid($body);
[$body, $seconds2, $exit] = fpm_request($fpm, 'next.php');
echo "next: exit $exit, ", rtrim($body, '0123456789'), "PID\n";
echo "same worker: ", var_export($first_pid === $pid($body), true), "\n";
$log = fpm_log($fpm);
echo "cancelled logged: ", var_export(str_contains($log, 'cancelled: Request shutdown timeout'), true), "\n";
echo "abandon logged: ", var_export(str_contains($log, 'Request shutdown timeout: 1 coroutine still running 300 ms after the script ended is abandoned'), true), "\n";
?>
--EXPECT--
first: exit 0, first answered by PID
next: exit 0, next served by PID
same worker: true
cancelled logged: true
abandon logged: true
