--TEST--
Truncating, rewriting and closing, ftruncate() and unlink() of a big file in a coroutine free or write back its blocks on the thread pool: a ticker keeps ticking; results as stock
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

$dir = sys_get_temp_dir() . '/async-bigfile-' . getmypid();
@mkdir($dir);
$f = "$dir/big.bin";
$chunk = str_repeat('z', 1 << 20);
const MB = 256;
function fill($h, string $chunk): void
{
    for ($i = 0; $i < MB; $i++) {
        fwrite($h, $chunk);
    }
}
function make(string $f, string $chunk): void
{
    $h = fopen($f, 'w');
    fill($h, $chunk);
    fclose($h);
}
function ms(callable $fn): float
{
    $t0 = hrtime(true);
    $fn();
    return ms_since($t0);
}

/* stock, outside coroutines: how long each call holds the process here */
$stock = [];
make($f, $chunk);
$stock['open w'] = ms(function () use ($f) { fclose(fopen($f, 'w')); });
make($f, $chunk);
$h = fopen($f, 'w');
fill($h, $chunk);
$stock['close'] = ms(function () use ($h) { fclose($h); });
$h = fopen($f, 'r+');
$stock['ftruncate'] = ms(function () use ($h) { ftruncate($h, 0); });
fclose($h);
make($f, $chunk);
$stock['unlink'] = ms(function () use ($f) { unlink($f); });

/* the worst gap a 1 ms ticker sees while $op runs in another coroutine */
function worst_gap(callable $op): array
{
    $stamps = [];
    $done = false;
    $ticker = spawn(function () use (&$stamps, &$done) {
        while (!$done) {
            delay(1);
            $stamps[] = hrtime(true);
        }
    });
    delay(3);
    $window = [0, 0];
    $result = await(spawn(function () use ($op, &$window) {
        $window[0] = hrtime(true);
        $r = $op();
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
    return [$result, max($worst, $window[1] - $prev) / 1e6];
}
function check(string $what, array $stock, array $gap): void
{
    [$result, $worst] = $gap;
    // 30 ms at least: with another test on the machine's other core, the OS alone can keep the
    // ticker off the CPU for 20 ms (seen: 20.4 ms under Xdebug, while alone it sees 1-6 ms)
    $limit = max(30.0, $stock[$what] / 2) * slow_factor();
    echo "$what: ", json_encode($result), ' ', $worst < $limit ? 'others ran' : "ticker held for $worst ms (stock: {$stock[$what]} ms)", "\n";
}

make($f, $chunk);
check('open w', $stock, worst_gap(function () use ($f) {
    $h = fopen($f, 'w');
    $r = [fstat($h)['size'], stream_get_meta_data($h)['wrapper_type']];
    fclose($h);
    clearstatcache();
    return [$r, filesize($f)];
}));

make($f, $chunk);
check('close', $stock, worst_gap(function () use ($f, $chunk) {
    $h = fopen($f, 'w');
    fill($h, $chunk);
    $closed = fclose($h);
    clearstatcache();
    return [$closed, filesize($f) === MB << 20];
}));

check('ftruncate', $stock, worst_gap(function () use ($f) {
    $h = fopen($f, 'r+');
    $r = [ftruncate($h, 5), fstat($h)['size']];
    fclose($h);
    return $r;
}));

make($f, $chunk);
check('unlink', $stock, worst_gap(function () use ($f) {
    $r = unlink($f);
    return [$r, file_exists($f)];
}));

/* failures as stock */
await(spawn(function () use ($dir) {
    var_dump(@unlink("$dir/missing"));
    echo error_get_last()['message'], "\n";
    var_dump(@fopen("$dir/missing/x", 'w'));
    echo error_get_last()['message'], "\n";
}));
rmdir($dir);
?>
--EXPECTF--
open w: [[0,"plainfile"],0] others ran
close: [true,true] others ran
ftruncate: [true,5] others ran
unlink: [true,false] others ran
bool(false)
unlink(%s/missing): No such file or directory
bool(false)
fopen(%s/missing/x): Failed to open stream: No such file or directory
