--TEST--
stdio: stream_select() on proc_open() pipes waits in the reactor inside a coroutine; reads after it get the data
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
    $a = proc_open([PHP_BINARY, '-n', '-r', 'usleep(150000); echo "A";'], [1 => ['pipe', 'w']], $pa);
    $b = proc_open([PHP_BINARY, '-n', '-r', 'usleep(400000); echo "B";'], [1 => ['pipe', 'w']], $pb);
    $got = [];
    $t = $ticks;
    $open = [$pa[1], $pb[1]];
    while ($open) {
        $read = $open;
        $w = $e = null;
        $n = stream_select($read, $w, $e, 5);
        foreach ($read as $s) {
            $chunk = fread($s, 10);
            if ($chunk === '' && feof($s)) {
                unset($open[array_search($s, $open, true)]);
            } else {
                $got[] = $chunk;
            }
        }
    }
    echo implode('', $got), "\n";
    echo $ticks - $t >= 3 ? "ticked\n" : "no ticks: " . ($ticks - $t) . "\n";
    proc_close($a);
    proc_close($b);
});
await($r);
$done = true;
?>
--EXPECT--
AB
ticked
