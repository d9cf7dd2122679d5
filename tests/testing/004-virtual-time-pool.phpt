--TEST--
virtual_time(): a Pool's healthcheck timer and acquire timeout run on the bubble's clock; a periodic healthcheck does not keep the bubble from ending
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, delay};
use function Async\Testing\virtual_time;

$t = hrtime(true);
echo virtual_time(function () {
    $t0 = hrtime(true);
    $checks = [];
    $pool = new Pool(
        factory: fn() => new stdClass,
        healthcheck: function ($r) use (&$checks, $t0) { $checks[] = intdiv(hrtime(true) - $t0, 1000000); return true; },
        min: 1, max: 1, healthcheckInterval: 30000,
    );
    $held = $pool->acquire();
    $waited = spawn(function () use ($pool, $t0) {
        try {
            $pool->acquire(timeout: 2000);
        } catch (Throwable $e) {
            return get_class($e) . ' after ' . intdiv(hrtime(true) - $t0, 1000000) . ' ms';
        }
    });
    $result = await($waited);
    $pool->release($held);
    delay(100000);
    $pool->close();
    return "$result; healthchecks at " . implode(', ', $checks);
}), "\n";
echo "real time < 2 s: ", var_export((hrtime(true) - $t) / 1e9 < 2, true), "\n";
?>
--EXPECTF--
Async\%s after 2000 ms; healthchecks at 30000, 60000, 90000
real time < 2 s: true
