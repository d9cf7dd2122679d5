--TEST--
phpinfo(): the async section names the API it implements ("TrueAsync API") and the libuv version
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
$start = strpos($info, "\nasync\n");
var_dump($start !== false);
$section = substr($info, $start, 600);
foreach (explode("\n", $section) as $line) {
    if (str_starts_with($line, "TrueAsync API => ")) {
        echo "api: ", substr($line, strlen("TrueAsync API => ")) !== "" ? "named" : "empty", "\n";
    }
    if (str_starts_with($line, "libuv version => ")) {
        echo "libuv: ", count(explode(".", substr($line, 17))) === 3 ? "x.y.z" : $line, "\n";
    }
}
var_dump(str_contains($section, "\nABI => "));
?>
--EXPECT--
bool(true)
api: named
libuv: x.y.z
bool(false)
