--TEST--
Chaos: the scenario matrix, fast subset (matrix.php --fast): each scenario's outcome and time as matrix.expect says, and nothing left behind
--SKIPIF--
<?php
require __DIR__ . '/proxy.inc';
if (($r = chaos_skip_reason()) !== '') die("skip $r");
// Every child php would run under memcheck too: the chaos-valgrind lane (scripts/lanes.sh) runs it.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip the matrix runs under valgrind and ASan in its own lanes (chaos-valgrind, chaos-asan)');
?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
// The matrix runs from the repository (its .php files are not copied with tests/): the servers it
// needs are started by it, each group of scenarios in a child php under a watchdog.
$cmd = escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(chaos_root() . '/tests/chaos/matrix.php') . ' --fast 2>&1';
$out = (string) shell_exec($cmd);
if (preg_match('/^chaos-matrix: (\d+) passed, 0 failed/m', $out, $m) && (int) $m[1] >= 80) {
    echo "all passed, at least 80\n";
} else {
    echo $out;
}
?>
--EXPECT--
all passed, at least 80
