--TEST--
time_sleep_until() in a coroutine rejects out-of-range timestamps with the same ValueError as stock PHP (no instant "true", no endless sleep)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend};

$t0 = hrtime(true);
foreach (['PHP_INT_MAX' => PHP_INT_MAX, '1e300' => 1e300, 'INF' => INF, 'NAN' => NAN,
          '18446744074' => 18446744074.0, '-1' => -1, '-INF' => -INF] as $label => $ts) {
    $c = spawn(function () use ($ts) {
        try {
            return var_export(time_sleep_until($ts), true);
        } catch (ValueError $e) {
            return "ValueError: " . $e->getMessage();
        }
    });
    // Give it a moment; a correct implementation has finished by now.
    suspend();
    suspend();
    if (!$c->isCompleted()) {
        $c->cancel(new Async\AsyncCancellation("still sleeping"));
    }
    try {
        $r = await($c);
        echo "$label: $r\n";
    } catch (Async\AsyncCancellation $e) {
        echo "$label: ", $e->getMessage(), "\n";
    }
}
// A timestamp in the past is a warning and false, as in stock PHP.
$r = await(spawn(fn() => time_sleep_until(0)));
echo "past: ", var_export($r, true), "\n";
echo "fast: ", var_export((hrtime(true) - $t0) / 1e9 < 2, true), "\n";
?>
--EXPECTF--
PHP_INT_MAX: ValueError: time_sleep_until(): Argument #1 ($timestamp) must be between 0 and 18446744073
1e300: ValueError: time_sleep_until(): Argument #1 ($timestamp) must be between 0 and 18446744073
INF: ValueError: time_sleep_until(): Argument #1 ($timestamp) must be between 0 and 18446744073
NAN: ValueError: time_sleep_until(): Argument #1 ($timestamp) must be between 0 and 18446744073
18446744074: ValueError: time_sleep_until(): Argument #1 ($timestamp) must be between 0 and 18446744073
-1: ValueError: time_sleep_until(): Argument #1 ($timestamp) must be between 0 and 18446744073
-INF: ValueError: time_sleep_until(): Argument #1 ($timestamp) must be between 0 and 18446744073

Warning: time_sleep_until(): Argument #1 ($timestamp) must be greater than or equal to the current time in %s on line %d
past: false
fast: true
