--TEST--
phpinfo() / php --ri async: the async section names the version, the API it implements ("TrueAsync API"), libuv's version running and compiled, the PHP it was built for, and the INI table
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
$start = strpos($info, "\nasync\n");
var_dump($start !== false);
/* the section: its info table, a blank line, its INI table, up to the next blank line */
$end = strpos($info, "\n\n", strpos($info, "\nDirective => ", $start) ?: $start);
$section = substr($info, $start, ($end ?: strlen($info)) - $start);
foreach (explode("\n", $section) as $line) {
    if (str_starts_with($line, "TrueAsync API => ")) {
        echo "api: ", substr($line, strlen("TrueAsync API => ")) !== "" ? "named" : "empty", "\n";
    }
    if (str_starts_with($line, "libuv version => ")) {
        echo "libuv: ", count(explode(".", substr($line, 17))) === 3 ? "x.y.z" : $line, "\n";
    }
    if (str_starts_with($line, "libuv version (compiled) => ")) {
        echo "libuv compiled: ", preg_match('/^\d+\.\d+\.\d+$/', substr($line, 28)) ? "x.y.z" : $line, "\n";
    }
    if (str_starts_with($line, "PHP version (compiled) => ")) {
        echo "php compiled: ", substr($line, 26) === PHP_VERSION ? "this PHP" : $line, "\n";
    }
    if (str_starts_with($line, "Version => ")) {
        echo "version: ", substr($line, 11) === phpversion('async') ? "phpversion('async')" : $line, "\n";
    }
}
var_dump(str_contains($section, "\nABI => "));
foreach (['async.debug_deadlock', 'async.shutdown_timeout', 'async.vm_stack_size', 'async.context_pool_size', 'async.max_contexts', 'async.schedule_seed'] as $ini) {
    if (!str_contains($section, "\n$ini => ")) {
        echo "INI table lacks $ini\n";
    }
}
?>
--EXPECT--
bool(true)
version: phpversion('async')
api: named
libuv: x.y.z
libuv compiled: x.y.z
php compiled: this PHP
bool(false)
