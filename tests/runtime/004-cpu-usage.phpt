--TEST--
cpu_usage(): the first call stores a snapshot and reports zeros; the next one measures the interval since (a busy loop shows)
--FILE--
<?php
$keys = ['process_cores', 'process_percent', 'system_percent', 'cpu_count', 'interval_sec', 'loadavg'];

$first = Async\cpu_usage();
var_dump(array_keys($first) === $keys);
var_dump($first['process_cores'], $first['process_percent'], $first['system_percent'], $first['interval_sec']);
var_dump(is_int($first['cpu_count']) && $first['cpu_count'] >= 1);
var_dump(count($first['loadavg']) === 3 && min($first['loadavg']) >= 0);

// 100 ms of wall time spent computing (bounded by the clock, not by an iteration count).
$t0 = hrtime(true);
$x = 0;
while (hrtime(true) - $t0 < 100e6) {
    $x++;
}

$u = Async\cpu_usage();
$cores = $u['process_cores'];
var_dump($cores > 0, $cores <= $u['cpu_count'] + 0.5);
var_dump(abs($u['process_percent'] - $cores / $u['cpu_count'] * 100) < 1e-9);
var_dump($u['interval_sec'] >= 0.1, $u['interval_sec'] < 60);
var_dump($u['system_percent'] > 0, $u['system_percent'] <= 100);
var_dump($u['cpu_count'] === $first['cpu_count'], $u['cpu_count'] === Async\CpuSnapshot::now()->cpuCount);

// Each call measures from the previous one: a call right after covers a short interval.
$next = Async\cpu_usage();
var_dump($next['interval_sec'] < $u['interval_sec']);
?>
--EXPECT--
bool(true)
float(0)
float(0)
float(0)
float(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
