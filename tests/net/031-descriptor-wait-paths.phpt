--TEST--
Socket waits in coroutines: a wait reuses what the last one left (thousands of round trips), a cancelled wait and a wait ended by another coroutine's fclose() leave the descriptor's poll usable, and a reader and a writer wait on one socket at once
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, suspend};

function tcp_pair(): array
{
    [$srv, $addr] = net_listen();
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    $s = stream_socket_accept($srv, 5);
    fclose($srv);
    return [$c, $s];
}

/* 1. Round trips: every read of both sides waits, each wait after the first reuses the last. */
[$c, $s] = tcp_pair();
$n = 3000;
$echo = spawn(function () use ($s, $n) {
    for ($i = 0; $i < $n; $i++) {
        fwrite($s, strrev(fread($s, 100)));
    }
});
$asker = spawn(function () use ($c, $n) {
    $ok = 0;
    for ($i = 0; $i < $n; $i++) {
        fwrite($c, "q$i.");
        $ok += fread($c, 100) === strrev("q$i.") ? 1 : 0;
    }
    return $ok;
});
echo "round trips answered: ", await($asker), " of $n\n";
await($echo);

/* 2. A wait cancelled while it waits; then another coroutine reads the same stream. */
$waiting = spawn(function () use ($c) {
    try {
        fread($c, 100);
        return 'read returned';
    } catch (Async\AsyncCancellation $e) {
        return 'cancelled: ' . get_class($e);
    }
});
suspend(); /* it is in its wait now */
$waiting->cancel();
echo await($waiting), "\n";
$reader = spawn(fn() => fread($c, 100));
suspend();
fwrite($s, 'after the cancel');
echo "next reader: ", await($reader), "\n";
stream_set_timeout($c, 0, 50000);
$t = hrtime(true);
$r = fread($c, 100);
echo "a timed-out read: ", var_export($r, true), ", timed_out=", var_export(stream_get_meta_data($c)['timed_out'], true),
    ", ", ms_since($t) >= 49 ? 'not early' : 'EARLY', "\n";
fwrite($s, 'and again');
echo "then: ", fread($c, 100), "\n";

/* 3. A wait ended by another coroutine closing the stream; the descriptor numbers come back. */
$closed = spawn(function () use ($c) {
    return var_export(fread($c, 100), true); /* the stream is gone once it returns */
});
suspend();
$closer = spawn(function () use ($c) { fclose($c); });
await($closer);
echo "reader of a stream closed meanwhile: ", await($closed), "\n";
fclose($s);
[$c2, $s2] = tcp_pair();
$peer = spawn(function () use ($s2) {
    for ($i = 0; $i < 100; $i++) {
        fwrite($s2, fread($s2, 100) . '!');
    }
});
$ok = 0;
for ($i = 0; $i < 100; $i++) {
    fwrite($c2, "m$i");
    $ok += fread($c2, 100) === "m$i!" ? 1 : 0;
}
await($peer);
echo "new connection, same descriptor numbers likely: $ok of 100\n";

/* 4. A reader and a writer of one socket wait at once: two waits on one poll. */
$big = str_repeat('x', 8 << 20);
$writer = spawn(fn() => net_write_all($c2, $big));
$reader = spawn(fn() => fread($c2, 100));
suspend();
suspend();
$got = net_read_all($s2, strlen($big));
fwrite($s2, 'reply');
echo "writer sent ", await($writer) === strlen($big) ? 'all' : 'not all', ", peer got ",
    $got === $big ? 'all' : strlen($got), ", reader got ", await($reader), "\n";
fclose($c2);
fclose($s2);
?>
--EXPECT--
round trips answered: 3000 of 3000
cancelled: Async\AsyncCancellation
next reader: after the cancel
a timed-out read: false, timed_out=true, not early
then: and again
reader of a stream closed meanwhile: ''
new connection, same descriptor numbers likely: 100 of 100
writer sent all, peer got all, reader got reply
