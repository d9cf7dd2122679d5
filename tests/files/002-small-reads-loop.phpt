--TEST--
files: many small freads in one coroutine still let another run (the budget spans calls); results are stock
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$path = sys_get_temp_dir() . '/async-files-small-' . getmypid();
file_put_contents($path, str_repeat("0123456789abcdef", 4 << 20)); // 64 MB
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(1);
        $ticks++;
    }
});
$r = spawn(function () use ($path, &$ticks) {
    $fp = fopen($path, 'r');
    $n = 0;
    $t = $ticks;
    $hash = hash_init('md5');
    while (!feof($fp)) {
        $chunk = fread($fp, 4096);
        hash_update($hash, $chunk);
        $n += strlen($chunk);
    }
    fclose($fp);
    return [$n, hash_final($hash), $ticks - $t];
});
[$n, $md5, $ran] = await($r);
$done = true;
var_dump($n, $md5 === md5_file($path));
echo $ran >= 1 ? "ticker ran\n" : "ticker starved\n";
unlink($path);
?>
--EXPECT--
int(67108864)
bool(true)
ticker ran
