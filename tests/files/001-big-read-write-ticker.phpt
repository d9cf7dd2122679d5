--TEST--
files: while one coroutine writes and reads a 64 MB file (fwrite, fread, file_put_contents, file_get_contents), a 1 ms ticker keeps running
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

$path = sys_get_temp_dir() . '/async-files-' . getmypid();
$data = str_repeat(random_bytes(4096), 16384); // 64 MB
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(1);
        $ticks++;
    }
});
$io = spawn(function () use ($path, $data, &$ticks) {
    $counts = [];
    $t = $ticks;
    var_dump(file_put_contents($path, $data));
    $counts[] = $ticks - $t;
    $t = $ticks;
    $back = file_get_contents($path);
    $counts[] = $ticks - $t;
    var_dump($back === $data);
    $fp = fopen($path, 'r+');
    $t = $ticks;
    var_dump(strlen(fread($fp, strlen($data))), feof($fp), fread($fp, 1), feof($fp));
    $counts[] = $ticks - $t;
    rewind($fp);
    $t = $ticks;
    var_dump(fwrite($fp, $data), fflush($fp), fsync($fp), ftell($fp));
    $counts[] = $ticks - $t;
    fclose($fp);
    return $counts;
});
$counts = await($io);
$done = true;
unlink($path);
// Stock PHP: the ticker never runs while a call is inside the file (0 ticks each).
foreach (['file_put_contents', 'file_get_contents', 'fread', 'fwrite'] as $i => $what) {
    echo $what, ': ', $counts[$i] >= 1 ? "ticker ran\n" : "ticker starved\n";
}
?>
--EXPECT--
int(67108864)
bool(true)
int(67108864)
bool(false)
string(0) ""
bool(true)
int(67108864)
bool(true)
bool(true)
int(67108864)
file_put_contents: ticker ran
file_get_contents: ticker ran
fread: ticker ran
fwrite: ticker ran
