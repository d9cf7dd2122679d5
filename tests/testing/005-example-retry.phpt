--TEST--
examples/virtual_time_retry.php: the retry-with-back-off tests (31 s of sleeps) run in well under a second
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
/* The example ships beside the module that is being tested (run-phpt.sh copies tests/ elsewhere). */
$example = dirname(async_module_path(), 2) . '/examples/virtual_time_retry.php';
if (!is_file($example)) {
    $example = __DIR__ . '/../../examples/virtual_time_retry.php';
}
$t = hrtime(true);
$out = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg(async_module_path())
    . ' ' . escapeshellarg($example) . ' 2>&1');
echo preg_replace('/\([\d.]+ ms real\)/', '(N ms real)', $out);
var_dump((hrtime(true) - $t) / 1e9 < 5);
?>
--EXPECT--
ok   testSucceedsAfterFourFailures (N ms real)
ok   testGivesUpAfter31Seconds (N ms real)
bool(true)
