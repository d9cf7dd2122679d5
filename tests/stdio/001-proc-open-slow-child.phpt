--TEST--
stdio: reading a proc_open() pipe from a child that writes slowly suspends only the reader; another coroutine keeps ticking between the lines
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(5);
        $ticks++;
    }
});
$reader = spawn(function () use (&$ticks) {
    $p = proc_open([PHP_BINARY, '-n', '-r', 'for ($i = 0; $i < 3; $i++) { usleep(150000); echo "line$i\n"; }'],
        [1 => ['pipe', 'w']], $pipes);
    $seen = [];
    while (($line = fgets($pipes[1])) !== false) {
        $seen[] = [trim($line), $ticks];
    }
    var_dump(feof($pipes[1]), stream_get_meta_data($pipes[1])['blocked']);
    fclose($pipes[1]);
    var_dump(proc_close($p));
    return $seen;
});
$seen = await($reader);
$done = true;
await($ticker);
foreach ($seen as $i => [$line, $at]) {
    echo $line, "\n";
    // The child sleeps 150 ms before each line: the ticker ran meanwhile (stock PHP: 0 ticks).
    $before = $i === 0 ? 0 : $seen[$i - 1][1];
    echo $at - $before >= 3 ? "ticked\n" : "no ticks: " . ($at - $before) . "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
int(0)
line0
ticked
line1
ticked
line2
ticked
