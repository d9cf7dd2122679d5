--TEST--
async.dump_on_signal and async.block_warning_ms: accepted values, refused values with a warning, both off by default
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
var_dump(ini_get('async.dump_on_signal'), ini_get('async.block_warning_ms'));
/* dump_on_signal is set at start-up (php.ini, -d, a pool's config): ini_set() refuses it */
var_dump(ini_set('async.dump_on_signal', 'SIGQUIT'));
var_dump(ini_set('async.block_warning_ms', '-5'));
var_dump(ini_get('async.block_warning_ms'));
foreach (['SIGQUIT', 'quit', 'SIGUSR2', '12', '', '0', 'SIGKILL', '9', 'SIGNOPE', '99999', '11x'] as $v) {
    $out = shell_exec('USE_ZEND_ALLOC=1 ' . escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg(async_module_path())
        . ' -d ' . escapeshellarg("async.dump_on_signal=$v") . ' -r ' . escapeshellarg('var_dump(ini_get("async.dump_on_signal"));') . ' 2>&1');
    echo str_pad(var_export($v, true), 10), ' => ', trim(preg_replace('/\s+/', ' ', $out)), "\n";
}
?>
--EXPECT--
string(0) ""
string(1) "0"
bool(false)
bool(false)
string(1) "0"
'SIGQUIT'  => string(7) "SIGQUIT"
'quit'     => string(4) "quit"
'SIGUSR2'  => string(7) "SIGUSR2"
'12'       => string(2) "12"
''         => string(0) ""
'0'        => string(1) "0"
'SIGKILL'  => Warning: PHP Startup: async.dump_on_signal: "SIGKILL" names no signal that can be handled (use a name such as SIGQUIT or SIGUSR1, or a number) in Unknown on line 0 string(0) ""
'9'        => Warning: PHP Startup: async.dump_on_signal: "9" names no signal that can be handled (use a name such as SIGQUIT or SIGUSR1, or a number) in Unknown on line 0 string(0) ""
'SIGNOPE'  => Warning: PHP Startup: async.dump_on_signal: "SIGNOPE" names no signal that can be handled (use a name such as SIGQUIT or SIGUSR1, or a number) in Unknown on line 0 string(0) ""
'99999'    => Warning: PHP Startup: async.dump_on_signal: "99999" names no signal that can be handled (use a name such as SIGQUIT or SIGUSR1, or a number) in Unknown on line 0 string(0) ""
'11x'      => Warning: PHP Startup: async.dump_on_signal: "11x" names no signal that can be handled (use a name such as SIGQUIT or SIGUSR1, or a number) in Unknown on line 0 string(0) ""
