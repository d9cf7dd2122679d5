--TEST--
async.block_warning_ms: a blocking internal call in a destructor is named with the PHP frame it is called from (PHP 8.2/8.3: usleep(), as no coroutine may switch there; from PHP 8.4, where usleep() suspends there too, pcntl_sigtimedwait(), which nothing hooks); the wait is not cut short; turning the setting on with ini_set() works
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded');
if (PHP_VERSION_ID >= 80400 && !function_exists('pcntl_sigtimedwait')) die('skip pcntl needed'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
use function Async\{spawn, await};

var_dump(ini_get('async.block_warning_ms'));
var_dump(ini_set('async.block_warning_ms', '100'));
$warnings = [];
set_error_handler(function (int $no, string $msg, string $file, int $line) use (&$warnings) {
    if (str_contains($msg, 'Main coroutine')) {
        return true; // (under valgrind main itself may run 100 ms between switches)
    }
    $warnings[] = [$msg, basename($file), $line];
    return true;
});

// PHP 8.2 and 8.3 forbid switching inside destructors: usleep() there blocks the process. From
// PHP 8.4 it suspends the destructor's coroutine, so the blocking call is one nothing hooks: a
// sigtimedwait() for a signal nobody sends, which times out after the same 600 ms.
$blocking = PHP_VERSION_ID < 80400 ? 'usleep' : 'pcntl_sigtimedwait';
class Slow
{
    public function __destruct()
    {
        PHP_VERSION_ID < 80400 ? usleep(600000) : pcntl_sigtimedwait([SIGUSR2], $info, 0, 600000000);
    }
}

$slept = await(spawn(function () {
    $t = hrtime(true);
    $o = new Slow;
    unset($o);
    return (hrtime(true) - $t) / 1e6;
}));
var_dump($slept >= 595);
var_dump(count($warnings));
[$msg, $file, $line] = $warnings[0];
echo str_replace("inside $blocking()", "inside the blocking call", preg_replace('/run for \d+ ms/', 'run for N ms', $msg)), "\n";
var_dump($file, $line);
preg_match('/run for (\d+) ms/', $msg, $m);
var_dump((int) $m[1] >= 500); // the switch is seen by the watcher to a quarter of the limit

/* and off again: nothing more */
ini_set('async.block_warning_ms', '0');
await(spawn(function () { $o = new Slow; unset($o); }));
var_dump(count($warnings));
?>
--EXPECTF--
string(1) "0"
string(1) "0"
bool(true)
int(1)
Coroutine %d spawned at %s002-watchdog-blocking-call.php:27 (%r(Closure::__invoke|\{closure:[^)]*\})%r) has run for N ms without suspending (async.block_warning_ms=100): at %s002-watchdog-blocking-call.php:23 in Slow::__destruct(), inside the blocking call
string(%d) "002-watchdog-blocking-call.php"
int(23)
bool(true)
int(1)
