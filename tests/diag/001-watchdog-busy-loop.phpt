--TEST--
async.block_warning_ms: a coroutine busy in a PHP loop is named with its spawn site, the line it is on and the internal function it is called from; waiting in the reactor and a script without coroutines are not warned about
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
async.block_warning_ms=250
--FILE--
<?php
use function Async\{spawn, await, delay};

$warnings = [];
$others = 0;
set_error_handler(function (int $no, string $msg, string $file, int $line) use (&$warnings, &$others) {
    /* (under valgrind the main coroutine itself may run 250 ms between two switches, and is
     * rightly warned about: only the busy loop's warnings are checked) */
    if (str_contains($msg, 'in spin()') || !str_contains($msg, 'Main coroutine')) {
        $warnings[] = [$no, $msg, $line];
    } else {
        $others++;
    }
    return true;
});

/* no scheduler yet: a long computation in a plain script is not a coroutine blocking others */
$end = hrtime(true) + 300e6;
while (hrtime(true) < $end) { }
echo "plain script: ", count($warnings), " warnings\n";

/* waiting (in the reactor) is not running */
await(spawn(fn() => delay(600)));
echo "waiting: ", count($warnings), " warnings\n";

/* busy until the watchdog has spoken (bounded: 10 s) */
function spin(array &$warnings): void
{
    $end = hrtime(true) + 60e9; // a bound only: valgrind may hold the watcher thread back for seconds
    while (!$warnings && hrtime(true) < $end) { } // the busy line
}
$ticks = 0;
$ticker = spawn(function () use (&$ticks) { for ($i = 0; $i < 3; $i++) { delay(1); $ticks++; } });
$busy = spawn(function () use (&$warnings) { spin($warnings); });
await($busy);
[$no, $msg, $line] = $warnings[0];
var_dump($no === E_WARNING, $line);
echo preg_replace('/run for \d+ ms/', 'run for N ms', $msg), "\n";
preg_match('/run for (\d+) ms/', $msg, $m);
var_dump((int) $m[1] >= 250);
echo "ticks while busy: $ticks\n";
await($ticker);

/* a callback inside an internal function: named with it */
$warnings = [];
await(spawn(function () use (&$warnings) {
    array_map(function () use (&$warnings) { spin($warnings); }, [1]);
}));
echo preg_replace('/run for \d+ ms/', 'run for N ms', $warnings[0][1]), "\n";
echo "warnings in total: ", count($warnings), "\n";
?>
--EXPECTF--
plain script: 0 warnings
waiting: 0 warnings
bool(true)
int(30)
Coroutine %d spawned at %s001-watchdog-busy-loop.php:34 (%r(Closure::__invoke|\{closure:%s001-watchdog-busy-loop\.php:34\})%r) has run for N ms without suspending (async.block_warning_ms=250): at %s001-watchdog-busy-loop.php:30 in spin()
bool(true)
ticks while busy: 0
Coroutine %d spawned at %s001-watchdog-busy-loop.php:%d (%r(Closure::__invoke|\{closure:%s001-watchdog-busy-loop\.php:46\})%r) has run for N ms without suspending (async.block_warning_ms=250): at %s001-watchdog-busy-loop.php:30 in spin(), inside array_map()
warnings in total: 1
