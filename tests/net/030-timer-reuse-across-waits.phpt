--TEST--
Socket reads in a coroutine re-arm one timer per stream: timeouts that fire and waits that end by data alternate, the timeout can change between reads, and every read sees its own timeout
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$turns = new Async\Channel(1);
$log = [];
$reader = spawn(function () use ($a, $turns, &$log) {
    for ($i = 0; $i < 40; $i++) {
        $ms = $i % 2 ? 5 : 30;
        stream_set_timeout($a, 0, $ms * 1000);
        $turns->send($i); /* the writer answers every turn but every fourth */
        $t0 = hrtime(true);
        $data = fread($a, 100);
        $took = ms_since($t0);
        $meta = stream_get_meta_data($a);
        $ok = $i % 4 === 3
            ? $data === false && $meta['timed_out'] && $took >= $ms - 1
            : $data === "m$i" && !$meta['timed_out'];
        $log[] = $ok ? '.' : "[$i: " . var_export($data, true) . ", timed_out=" . var_export($meta['timed_out'], true) . ", $took ms of $ms]";
    }
    $turns->close();
});
$writer = spawn(function () use ($b, $turns) {
    foreach ($turns as $i) {
        if ($i % 4 !== 3) {
            fwrite($b, "m$i");
        }
    }
});
await($reader);
await($writer);
echo implode('', $log), "\n";

/* many streams waiting at once, each with its own timer */
$pairs = [];
for ($i = 0; $i < 20; $i++) {
    $pairs[] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
}
$readers = [];
foreach ($pairs as $i => [$x, $y]) {
    stream_set_timeout($x, 0, 200000); // 200 ms: room for main's delay(5) and 20 writes under ASan
    $readers[] = spawn(function () use ($x, $i) {
        $first = fread($x, 10);
        $second = fread($x, 10);
        return [$first, $second, stream_get_meta_data($x)['timed_out']];
    });
}
foreach ($pairs as $i => [$x, $y]) {
    if ($i % 2) {
        fwrite($y, "a$i");
    }
}
delay(5);
foreach ($pairs as $i => [$x, $y]) {
    fwrite($y, "b$i");
}
$bad = 0;
foreach ($readers as $i => $r) {
    [$first, $second, $timedOut] = await($r);
    $want = $i % 2 ? ["a$i", "b$i", false] : ["b$i", false, true];
    $bad += [$first, $second, $timedOut] === $want ? 0 : 1;
}
echo "20 streams: ", $bad === 0 ? "each saw its own data and timeout" : "$bad wrong", "\n";
?>
--EXPECT--
........................................
20 streams: each saw its own data and timeout
