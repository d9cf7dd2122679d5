--TEST--
Net: several coroutines writing one socket stream: each fwrite() goes out whole, in the order the writers came, never interleaved with another coroutine's; other coroutines run meanwhile
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, delay, suspend};

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$size = 1 << 20; // far more than the socket buffers: every write has to wait for the reader
$writers = [];
foreach (['A', 'B', 'C'] as $letter) {
    $writers[] = spawn(fn() => fwrite($a, str_repeat($letter, $size)));
}
$ticks = 0;
$ticker = spawn(function () use (&$ticks) { while ($ticks < 1000000) { $ticks++; suspend(); } });
$reader = spawn(function () use ($b, $size) {
    $data = '';
    while (strlen($data) < 3 * $size) {
        $chunk = fread($b, 65536);
        if ($chunk === '' || $chunk === false) break;
        $data .= $chunk;
        if (strlen($data) % (256 * 1024) < 65536) delay(1); // a slow reader
    }
    return $data;
});
foreach ($writers as $w) { var_dump(await($w)); }
$data = await($reader);
$ticker->cancel();
// Runs of one letter: exactly three, each whole.
$runs = [];
$i = 0;
while ($i < strlen($data)) {
    $j = $i + strspn($data, $data[$i], $i);
    $runs[] = $data[$i] . ':' . ($j - $i);
    $i = $j;
}
echo implode(' ', $runs), "\n";
echo 'others ran meanwhile: ', var_export($ticks > 10, true), "\n";
?>
--EXPECT--
int(1048576)
int(1048576)
int(1048576)
A:1048576 B:1048576 C:1048576
others ran meanwhile: true
