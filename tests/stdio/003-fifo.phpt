--TEST--
stdio: a FIFO read waits in the reactor (its timeout applies) while the writer coroutine sleeps and a ticker ticks
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded');
if (!is_executable('/usr/bin/mkfifo')) die('skip no mkfifo'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, await_all, delay};

$fifo = sys_get_temp_dir() . '/async-fifo-' . getmypid();
@unlink($fifo);
exec('/usr/bin/mkfifo ' . escapeshellarg($fifo), $o, $rc);
var_dump($rc);
// r+ never blocks in open() on Linux (the reader is also a writer), so the writer's open finds a reader.
$in = fopen($fifo, 'r+');
$out = fopen($fifo, 'w');
$log = [];
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(5);
        $ticks++;
    }
});
$reader = spawn(function () use ($in, &$log, &$ticks) {
    stream_set_timeout($in, 0, 100000);
    $log[] = 'timeout: ' . json_encode(fgets($in)) . ' ' . json_encode(stream_get_meta_data($in)['timed_out']);
    stream_set_timeout($in, 10);
    $t = $ticks;
    $log[] = 'read: ' . trim(fgets($in));
    $log[] = $ticks - $t >= 5 ? 'ticked while waiting' : 'no ticks: ' . ($ticks - $t);
});
$writer = spawn(function () use ($out, &$log) {
    delay(300);
    $log[] = 'write: ' . fwrite($out, "hello fifo\n");
});
await_all([$reader, $writer]);
$done = true;
fclose($in);
fclose($out);
unlink($fifo);
echo implode("\n", $log), "\n";
?>
--EXPECT--
int(0)
timeout: false true
write: 11
read: hello fifo
ticked while waiting
