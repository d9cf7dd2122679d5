--TEST--
fsync()/fdatasync() of a big dirty file in a coroutine run on the reactor's thread pool: the others keep running while the disk syncs; results as stock
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

$dir = sys_get_temp_dir() . '/async-fsync-' . getmypid();
@mkdir($dir);
$chunk = str_repeat('z', 1 << 20);
function dirty(string $path, string $chunk)
{
    $h = fopen($path, 'w');
    for ($i = 0; $i < 128; $i++) {
        fwrite($h, $chunk);
    }
    return $h;
}

/* stock: fsync() outside any coroutine holds the process until the disk has it */
$h = dirty("$dir/stock.bin", $chunk);
$t0 = hrtime(true);
var_dump(fsync($h));
$stockMs = ms_since($t0);
fclose($h);

/* in a coroutine, while a 1 ms ticker runs: its worst gap during the sync */
$stamps = [];
$done = false;
$ticker = spawn(function () use (&$stamps, &$done) {
    while (!$done) {
        delay(1);
        $stamps[] = hrtime(true);
    }
});
$window = [0, 0];
$results = await(spawn(function () use ($dir, $chunk, &$window) {
    $h = dirty("$dir/co.bin", $chunk);
    delay(2);
    $window[0] = hrtime(true);
    $r = fsync($h);
    $window[1] = hrtime(true);
    fwrite($h, 'more');
    $r2 = fdatasync($h);
    fclose($h);
    return [$r, $r2];
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
var_dump($results);
$limit = max(20.0, $stockMs / 2) * slow_factor();
echo $worst < $limit ? "others ran during the sync\n" : "ticker held for $worst ms (stock fsync: $stockMs ms)\n";

/* a stream that cannot be synced: PHP's own warning and false */
await(spawn(function () {
    $m = fopen('php://memory', 'w+');
    var_dump(@fsync($m));
}));
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
bool(true)
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
others ran during the sync
bool(false)
