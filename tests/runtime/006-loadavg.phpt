--TEST--
loadavg(): the 1, 5 and 15 minute load averages as three floats, the ones /proc/loadavg shows
--SKIPIF--
<?php if (!is_readable('/proc/loadavg')) die('skip needs /proc/loadavg (Linux)'); ?>
--FILE--
<?php
$l = Async\loadavg();
$proc = array_map('floatval', array_slice(explode(' ', file_get_contents('/proc/loadavg')), 0, 3));
var_dump(array_keys($l), array_map('is_float', $l));
var_dump(min($l) >= 0);
// Both are the kernel's figures, updated every 5 s: equal, or a step apart if an update fell
// between the two reads.
foreach ($l as $i => $v) {
    if (abs($v - $proc[$i]) > 1.0) {
        echo "loadavg[$i] = $v, /proc/loadavg says {$proc[$i]}\n";
    }
}
// cpu_usage() carries the same figures.
$u = Async\cpu_usage()['loadavg'];
var_dump(count($u) === 3 && array_sum(array_map(fn($a, $b) => abs($a - $b), $u, $l)) < 3.0);
?>
--EXPECT--
array(3) {
  [0]=>
  int(0)
  [1]=>
  int(1)
  [2]=>
  int(2)
}
array(3) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  bool(true)
}
bool(true)
bool(true)
