--TEST--
Net: a user error handler that waits, called for a warning raised inside PHP's own socket code, blocks in place instead of switching
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, delay};

$ticks = 0;
$ticker = spawn(function () use (&$ticks) {
    for (;;) {
        delay(1);
        $ticks++;
    }
});
$calls = [];
set_error_handler(function ($no, $msg) use (&$calls, &$ticks) {
    // The notice comes from inside PHP's send(): the stream is mid-call, so this wait must not
    // let other coroutines run (one of them could close the stream under the call).
    $before = $ticks;
    delay(20);
    $calls[] = $msg . ' (others ran: ' . var_export($ticks !== $before, true) . ')';
    return true;
});

await(spawn(function () {
    [$srv, $addr] = net_listen();
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    $s = stream_socket_accept($srv, 5);
    fwrite($c, "unread\n");
    fclose($s); // a reset: the next reads and writes fail
    fread($c, 10);
    var_dump(fwrite($c, 'x'));
}));
$ticker->cancel();
echo implode("\n", $calls), "\n";
?>
--EXPECT--
bool(false)
fwrite(): Send of 1 bytes failed with errno=32 Broken pipe (others ran: false)
