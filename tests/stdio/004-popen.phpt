--TEST--
stdio: popen() streams (stdio FILEs) read and written in a coroutine suspend only it
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(5);
        $ticks++;
    }
});
$r = spawn(function () use (&$ticks) {
    $p = popen(escapeshellarg(PHP_BINARY) . ' -n -r \'usleep(200000); echo "one\n"; usleep(200000); echo "two\n";\'', 'r');
    $t = $ticks;
    $a = fgets($p);
    $ta = $ticks - $t;
    $b = fread($p, 100);
    $tb = $ticks - $t;
    var_dump($a, $b, fread($p, 10), feof($p), pclose($p));
    echo $ta >= 5 ? "ticked before one\n" : "no ticks: $ta\n";
    echo $tb > $ta ? "ticked before two\n" : "no ticks: $tb\n";
    // A writing popen: the child reads all of it.
    $tmp = tempnam(sys_get_temp_dir(), 'popen');
    $w = popen('cat > ' . escapeshellarg($tmp), 'w');
    var_dump(fwrite($w, str_repeat('z', 200000)), pclose($w), filesize($tmp));
    unlink($tmp);
});
await($r);
$done = true;
?>
--EXPECT--
string(4) "one
"
string(4) "two
"
string(0) ""
bool(true)
int(0)
ticked before one
ticked before two
int(200000)
int(0)
int(200000)
