--TEST--
Reactor: a timer already due when the loop runs wakes its waiter without waiting for the next timer
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, delay};
// The coroutine burns 30 ms of CPU, so main's delay(1) is overdue when the loop next polls;
// a far-away 5 s timer must not hold that poll (libuv 1.44 UV_RUN_ONCE pitfall).
$far = spawn(function () {
    $t = hrtime(true);
    while (hrtime(true) - $t < 30e6) {}
    delay(5000);
});
$t = hrtime(true);
delay(1);
$ms = ms_since($t);
var_dump($ms >= 1, $ms < 1000);
$far->cancel();
?>
--EXPECT--
bool(true)
bool(true)
