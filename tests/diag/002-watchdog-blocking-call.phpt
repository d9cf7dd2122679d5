--TEST--
async.block_warning_ms: a blocking internal call (usleep() in a destructor, where no coroutine may switch) is named with the PHP frame it is called from; the sleep is not cut short; turning the setting on with ini_set() works
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
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

class Slow
{
    public function __destruct()
    {
        usleep(600000); // blocks: destructors cannot switch
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
echo preg_replace('/run for \d+ ms/', 'run for N ms', $msg), "\n";
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
Coroutine %d spawned at %s002-watchdog-blocking-call.php:23 (Closure::__invoke) has run for N ms without suspending (async.block_warning_ms=100): at %s002-watchdog-blocking-call.php:19 in Slow::__destruct(), inside usleep()
string(%d) "002-watchdog-blocking-call.php"
int(19)
bool(true)
int(1)
