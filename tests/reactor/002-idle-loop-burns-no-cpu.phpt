--TEST--
Reactor: an idle delay(500) sleeps in epoll on Debian's libuv 1.44 (no busy loop)
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};
function cpu_ms(): float {
    $u = getrusage();
    return ($u['ru_utime.tv_sec'] + $u['ru_stime.tv_sec']) * 1000 + ($u['ru_utime.tv_usec'] + $u['ru_stime.tv_usec']) / 1000;
}
$c = spawn(fn() => delay(500));
$cpu = cpu_ms();
$t = hrtime(true);
await($c);
$wall = (hrtime(true) - $t) / 1e6;
$used = cpu_ms() - $cpu;
var_dump($wall >= 499);
// Valgrind's own work inside the window is CPU too.
var_dump($used < 50 * slow_factor());
if ($used >= 50 * slow_factor()) echo "cpu used: $used ms\n";
?>
--EXPECT--
bool(true)
bool(true)
