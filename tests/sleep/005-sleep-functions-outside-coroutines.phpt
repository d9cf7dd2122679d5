--TEST--
sleep/usleep/time_nanosleep/time_sleep_until outside coroutines behave exactly like PHP
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
// The async runtime is never launched in this script.
$t = hrtime(true);
var_dump(usleep(20000));
var_dump((hrtime(true) - $t) / 1e6 >= 19);
var_dump(sleep(0));
$t = hrtime(true);
var_dump(time_nanosleep(0, 20000000));
var_dump((hrtime(true) - $t) / 1e6 >= 19);
$t = hrtime(true);
$target = microtime(true) + 0.02;
var_dump(time_sleep_until($target));
var_dump(microtime(true) >= $target - 0.001);

$cases = [
    fn() => sleep(-1),
    fn() => usleep(-1),
    fn() => time_nanosleep(-1, 0),
    fn() => time_nanosleep(0, -1),
    fn() => time_nanosleep(0, 1000000000),
    fn() => time_sleep_until(1.0),
    fn() => sleep("x"),
];
foreach ($cases as $f) {
    try {
        var_dump($f());
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
// Still not launched.
var_dump(Async\get_coroutines());
?>
--EXPECTF--
NULL
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
ValueError: sleep(): Argument #1 ($seconds) must be greater than or equal to 0
ValueError: usleep(): Argument #1 ($microseconds) must be greater than or equal to 0
ValueError: time_nanosleep(): Argument #1 ($seconds) must be greater than or equal to 0
ValueError: time_nanosleep(): Argument #2 ($nanoseconds) must be greater than or equal to 0
ValueError: Nanoseconds was not in the range 0 to 999 999 999 or seconds was negative

Warning: time_sleep_until(): Argument #1 ($timestamp) must be greater than or equal to the current time in %s on line %d
bool(false)
TypeError: sleep(): Argument #1 ($seconds) must be of type int, string given
array(0) {
}
