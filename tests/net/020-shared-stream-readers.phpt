--TEST--
Net: two coroutines reading one socket stream: what one read pulled into the stream's buffer is the other's at once (no wait for its read timeout), in order, and a buffer that moved meanwhile is never written through a stale pointer
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, delay};

[$client, $server] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
stream_set_timeout($client, 5);

// 1. Both readers wait; one write carries both lines; the first reader's fill takes both.
$late = spawn(fn() => delay(1000)); // finishes long before a 5 s read timeout would
$a = spawn(fn() => fgets($client));
$b = spawn(function () use ($client, $late) {
    $line = fgets($client);
    return [$line, stream_get_meta_data($client)['timed_out'], $late->isCompleted()];
});
spawn(function () use ($server) { delay(20); fwrite($server, "first\nsecond\n"); });
var_dump(await($a));
[$line, $timed_out, $late_done] = await($b);
var_dump($line, $timed_out, $late_done);

// 2. Many readers of fixed-size records while the buffer grows and moves under them: every
//    record arrives whole, once, in order.
$readers = [];
for ($i = 0; $i < 8; $i++) {
    $readers[] = spawn(fn() => fread($client, 6));
}
spawn(function () use ($server) {
    delay(10);
    $all = '';
    for ($i = 0; $i < 8; $i++) { $all .= sprintf("rec%02d\n", $i); }
    fwrite($server, $all);
});
$got = [];
foreach ($readers as $r) { $got[] = await($r); }
echo implode('', $got);
await($late);
?>
--EXPECT--
string(6) "first
"
string(7) "second
"
bool(false)
bool(false)
rec00
rec01
rec02
rec03
rec04
rec05
rec06
rec07
