--TEST--
available_parallelism(): the CPUs this process may run on (its affinity mask, or a cgroup quota below it), at least 1
--SKIPIF--
<?php if (!is_readable('/proc/self/status')) die('skip needs /proc (Linux)'); ?>
--FILE--
<?php
// Count the CPUs in "Cpus_allowed_list: 0-3,6" from /proc/self/status.
function affinity_count(): int {
    preg_match('/^Cpus_allowed_list:\s*(\S+)/m', file_get_contents('/proc/self/status'), $m);
    $n = 0;
    foreach (explode(',', $m[1]) as $range) {
        $ends = explode('-', $range);
        $n += count($ends) === 2 ? (int) $ends[1] - (int) $ends[0] + 1 : 1;
    }
    return $n;
}
// A cgroup v2 CPU quota ("200000 100000" = 2 CPUs), which libuv >= 1.48 also honours.
function quota_count(): ?int {
    $max = @file_get_contents('/sys/fs/cgroup/cpu.max');
    if ($max === false || !preg_match('/^(\d+)\s+(\d+)/', $max, $m)) {
        return null;
    }
    return max(1, (int) ceil($m[1] / $m[2]));
}

$n = Async\available_parallelism();
var_dump(is_int($n), $n >= 1);
$affinity = affinity_count();
$quota = quota_count();
$expected = [$affinity];
if ($quota !== null) {
    $expected[] = min($affinity, $quota);
}
var_dump(in_array($n, $expected, true) ?: "got $n, expected one of " . implode(',', $expected));
var_dump(Async\available_parallelism() === $n); // stable
// Pure: it launches nothing.
var_dump(Async\get_coroutines());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
