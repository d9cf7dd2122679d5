--TEST--
sleep/usleep/time_nanosleep/time_sleep_until inside a coroutine: same errors and warnings as PHP
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

await(spawn(function () {
    $cases = [
        fn() => sleep(-1),
        fn() => usleep(-1),
        fn() => time_nanosleep(-1, 0),
        fn() => time_nanosleep(0, -1),
        fn() => time_nanosleep(0, 1000000000),
        fn() => time_sleep_until(1.0),
        fn() => sleep("x"),
        fn() => usleep(),
        fn() => time_nanosleep(1),
        fn() => time_sleep_until("soon"),
    ];
    foreach ($cases as $f) {
        try {
            var_dump($f());
        } catch (Throwable $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
}));
?>
--EXPECTF--
ValueError: sleep(): Argument #1 ($seconds) must be greater than or equal to 0
ValueError: usleep(): Argument #1 ($microseconds) must be greater than or equal to 0
ValueError: time_nanosleep(): Argument #1 ($seconds) must be greater than or equal to 0
ValueError: time_nanosleep(): Argument #2 ($nanoseconds) must be greater than or equal to 0
ValueError: Nanoseconds was not in the range 0 to 999 999 999 or seconds was negative

Warning: time_sleep_until(): Argument #1 ($timestamp) must be greater than or equal to the current time in %s on line %d
bool(false)
TypeError: sleep(): Argument #1 ($seconds) must be of type int, string given
ArgumentCountError: usleep() expects exactly 1 argument, 0 given
ArgumentCountError: time_nanosleep() expects exactly 2 arguments, 1 given
TypeError: time_sleep_until(): Argument #1 ($timestamp) must be of type float, string given
