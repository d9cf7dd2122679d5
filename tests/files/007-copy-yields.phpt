--TEST--
copy() of a big file in a coroutine lets the others run (PHP's one-call copy_file_range() is avoided there; the copy goes through the sliced stream ops); the result, the copy and copy()'s warnings are stock
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

$dir = sys_get_temp_dir() . '/async-copy-' . getmypid();
@mkdir($dir);
$src = "$dir/src.bin";
$chunk = str_repeat(random_bytes(1024), 1024); // 1 MiB
$h = fopen($src, 'w');
for ($i = 0; $i < 128; $i++) {
    fwrite($h, $chunk);
}
fclose($h);

/* stock: copy() outside any coroutine, one copy_file_range() call: how long the process is held */
$t0 = hrtime(true);
copy($src, "$dir/stock.bin");
$stockMs = ms_since($t0);
unlink("$dir/stock.bin");

/* in a coroutine, while a 1 ms ticker runs: its worst gap during the copy */
$stamps = [];
$done = false;
$ticker = spawn(function () use (&$stamps, &$done) {
    while (!$done) {
        delay(1);
        $stamps[] = hrtime(true);
    }
});
$window = [0, 0];
$result = await(spawn(function () use ($src, $dir, &$window) {
    delay(5);
    $window[0] = hrtime(true);
    $r = copy($src, "$dir/dst.bin");
    $window[1] = hrtime(true);
    return $r;
}));
$done = true;
await($ticker);
$worst = 0;
$prev = $window[0];
foreach ($stamps as $t) {
    if ($t > $window[0] && $t <= $window[1]) {
        $worst = max($worst, $t - $prev);
        $prev = $t;
    }
}
$worst = max($worst, $window[1] - $prev) / 1e6;
var_dump($result);
var_dump(filesize("$dir/dst.bin") === 128 * 1024 * 1024, md5_file($src) === md5_file("$dir/dst.bin"));
/* stock holds the process for the whole copy; here the ticker's worst gap is a small part of it */
$limit = max(20.0, $stockMs / 2) * slow_factor();
echo $worst < $limit ? "others ran during the copy\n" : "ticker held for $worst ms (stock copy: $stockMs ms)\n";

/* warnings and results as stock, inside a coroutine */
await(spawn(function () use ($dir) {
    var_dump(copy("$dir/missing", "$dir/x"));
    var_dump(copy($dir, "$dir/y"));
    var_dump(copy("$dir/src.bin", "$dir/src.bin"));
}));
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
others ran during the copy

Warning: copy(%smissing): Failed to open stream: No such file or directory in %s on line %d
bool(false)

Warning: copy(): The first argument to copy() function cannot be a directory in %s on line %d
bool(false)
bool(false)
