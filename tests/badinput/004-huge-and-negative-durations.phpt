--TEST--
Huge durations (PHP_INT_MAX ms etc.) suspend the coroutine without overflowing into an immediate wake-up, and cancel() still ends them; negative values are ValueErrors
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};

$t0 = hrtime(true);
$calls = [
    'delay(PHP_INT_MAX)'           => fn() => delay(PHP_INT_MAX),
    'delay(PHP_INT_MAX - 1)'       => fn() => delay(PHP_INT_MAX - 1),
    'delay(2**63 / 1000)'          => fn() => delay(intdiv(PHP_INT_MAX, 1000)),
    'delay(2**32)'                 => fn() => delay(2 ** 32),
    'delay(2**31)'                 => fn() => delay(2 ** 31),
    'sleep(PHP_INT_MAX)'           => fn() => sleep(PHP_INT_MAX),
    'usleep(PHP_INT_MAX)'          => fn() => usleep(PHP_INT_MAX),
    'time_nanosleep(PHP_INT_MAX)'  => fn() => time_nanosleep(PHP_INT_MAX, 999999999),
];
foreach ($calls as $label => $call) {
    $c = spawn(function () use ($call) {
        $call();
        return "woke up";
    });
    suspend();
    suspend();
    echo str_pad($label, 30), " suspended=", var_export($c->isSuspended(), true),
        " completed=", var_export($c->isCompleted(), true);
    $c->cancel(new Async\AsyncCancellation("stop"));
    try {
        $r = await($c);
        echo " result=$r\n";
    } catch (Async\AsyncCancellation $e) {
        echo " cancelled: ", $e->getMessage(), "\n";
    }
}
echo "all returned quickly: ", var_export((hrtime(true) - $t0) / 1e9 < 5, true), "\n";

function t(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: no error (", var_export($r, true), ")\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
// Negative values, inside a coroutine (the coroutine-aware versions) and outside one.
foreach (['in coroutine' => fn($f) => await(spawn($f)), 'main' => fn($f) => $f()] as $where => $run) {
    echo "-- $where\n";
    t("delay(-1)", fn() => $run(fn() => delay(-1)));
    t("delay(PHP_INT_MIN)", fn() => $run(fn() => delay(PHP_INT_MIN)));
    t("sleep(-1)", fn() => $run(fn() => sleep(-1)));
    t("usleep(-1)", fn() => $run(fn() => usleep(-1)));
    t("time_nanosleep(-1, 0)", fn() => $run(fn() => time_nanosleep(-1, 0)));
    t("time_nanosleep(0, -1)", fn() => $run(fn() => time_nanosleep(0, -1)));
    t("time_nanosleep(0, 10**9)", fn() => $run(fn() => time_nanosleep(0, 1000000000)));
}
?>
--EXPECT--
delay(PHP_INT_MAX)             suspended=true completed=false cancelled: stop
delay(PHP_INT_MAX - 1)         suspended=true completed=false cancelled: stop
delay(2**63 / 1000)            suspended=true completed=false cancelled: stop
delay(2**32)                   suspended=true completed=false cancelled: stop
delay(2**31)                   suspended=true completed=false cancelled: stop
sleep(PHP_INT_MAX)             suspended=true completed=false cancelled: stop
usleep(PHP_INT_MAX)            suspended=true completed=false cancelled: stop
time_nanosleep(PHP_INT_MAX)    suspended=true completed=false cancelled: stop
all returned quickly: true
-- in coroutine
delay(-1): ValueError: Async\delay(): Argument #1 ($ms) must be greater than or equal to 0
delay(PHP_INT_MIN): ValueError: Async\delay(): Argument #1 ($ms) must be greater than or equal to 0
sleep(-1): ValueError: sleep(): Argument #1 ($seconds) must be greater than or equal to 0
usleep(-1): ValueError: usleep(): Argument #1 ($microseconds) must be greater than or equal to 0
time_nanosleep(-1, 0): ValueError: time_nanosleep(): Argument #1 ($seconds) must be greater than or equal to 0
time_nanosleep(0, -1): ValueError: time_nanosleep(): Argument #2 ($nanoseconds) must be greater than or equal to 0
time_nanosleep(0, 10**9): ValueError: Nanoseconds was not in the range 0 to 999 999 999 or seconds was negative
-- main
delay(-1): ValueError: Async\delay(): Argument #1 ($ms) must be greater than or equal to 0
delay(PHP_INT_MIN): ValueError: Async\delay(): Argument #1 ($ms) must be greater than or equal to 0
sleep(-1): ValueError: sleep(): Argument #1 ($seconds) must be greater than or equal to 0
usleep(-1): ValueError: usleep(): Argument #1 ($microseconds) must be greater than or equal to 0
time_nanosleep(-1, 0): ValueError: time_nanosleep(): Argument #1 ($seconds) must be greater than or equal to 0
time_nanosleep(0, -1): ValueError: time_nanosleep(): Argument #2 ($nanoseconds) must be greater than or equal to 0
time_nanosleep(0, 10**9): ValueError: Nanoseconds was not in the range 0 to 999 999 999 or seconds was negative
