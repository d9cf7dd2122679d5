--TEST--
files: two coroutines locking one file through two handles take turns; the waiting one suspends (a ticker runs meanwhile)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, await_all, delay};

$path = tempnam(sys_get_temp_dir(), 'lock');
$log = [];
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(2);
        $ticks++;
    }
});
$worker = function (string $name) use ($path, &$log) {
    return function () use ($name, $path, &$log) {
        $h = fopen($path, 'r+');
        for ($i = 0; $i < 3; $i++) {
            var_dump(flock($h, LOCK_EX));
            $log[] = "$name+";
            delay(20); // holds the lock across a suspension
            $log[] = "$name-";
            flock($h, LOCK_UN);
        }
        fclose($h);
    };
};
$t = $ticks;
await_all([spawn($worker('a')), spawn($worker('b'))]);
$done = true;
echo implode(' ', $log), "\n";
echo $ticks - $t >= 20 ? "ticked\n" : "no ticks\n";
unlink($path);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
a+ a- b+ b- a+ a- b+ b- a+ a- b+ b-
ticked
