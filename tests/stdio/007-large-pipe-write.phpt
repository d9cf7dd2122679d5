--TEST--
stdio: a 2 MB fwrite() into a child that starts reading late suspends only the writer; the child gets every byte
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
    $p = proc_open([PHP_BINARY, '-n', '-r', 'usleep(300000); $s = stream_get_contents(STDIN); echo strlen($s), " ", md5($s);'],
        [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    $data = str_repeat(random_bytes(1000), 2000) . 'end';
    $t = $ticks;
    var_dump(fwrite($pipes[0], $data));
    echo $ticks - $t >= 10 ? "ticked while the pipe was full\n" : "no ticks: " . ($ticks - $t) . "\n";
    fclose($pipes[0]);
    echo stream_get_contents($pipes[1]) === strlen($data) . ' ' . md5($data) ? "child got it all\n" : "mismatch\n";
    proc_close($p);
});
await($r);
$done = true;
?>
--EXPECT--
int(2000003)
ticked while the pipe was full
child got it all
