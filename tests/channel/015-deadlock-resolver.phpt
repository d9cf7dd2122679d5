--TEST--
Channel: deadlock layer 1: soft-timeout channels with a blocked party are closed with DEADLOCK and the program goes on
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=1
--FILE--
<?php
use Async\{Channel, ChannelException};
use function Async\{spawn, await};

// Main waits on a soft channel whose 10 s timeout would come much later: the resolver closes it
// as soon as everything is blocked (soft timers do not keep the loop alive).
$t0 = hrtime(true);
$ch = new Channel(0, 10000);
try {
    $ch->recv();
} catch (ChannelException $e) {
    printf("main: %s (%s), well before the timeout: %s\n", $e->getMessage(), $e->reason->name,
        var_export((hrtime(true) - $t0) / 1e6 < 5000, true));
}

// Only channels with soft timeouts take part: main waits on a plain channel, a coroutine on a
// soft one. The resolver closes the soft one; the coroutine recovers and wakes main, so there is
// no DeadlockError at all.
$plain = new Channel();
$soft = new Channel(1, 0, 10000);
$soft->send("full");
$helper = spawn(function () use ($plain, $soft) {
    try {
        $soft->send("blocked");
    } catch (ChannelException $e) {
        echo "helper: ", $e->getMessage(), " (", $e->reason->value, ")\n";
        $plain->send("rescued");
    }
});
var_dump($plain->recv());
await($helper);
var_dump($plain->isClosed(), $soft->isClosed(), $soft->recv());

// A soft channel nobody waits on is left alone.
$idle = new Channel(1, 5, 5);
$waiting = new Channel(0, 10000);
$w = spawn(function () use ($waiting) {
    try { $waiting->recv(); } catch (ChannelException $e) { return $e->reason->name; }
});
var_dump(await($w), $idle->isClosed());

// A pending recvAsync() future that main awaits counts as a blocked receiver.
$async = new Channel(0, 10000);
try {
    await($async->recvAsync());
} catch (ChannelException $e) {
    echo "future: ", $e->getMessage(), " (", $e->reason->name, ")\n";
}
echo "end\n";
?>
--EXPECT--
main: Channel deadlock (DEADLOCK), well before the timeout: true
helper: Channel deadlock (deadlock)
string(7) "rescued"
bool(false)
bool(true)
string(4) "full"
string(8) "DEADLOCK"
bool(false)
future: Channel deadlock (DEADLOCK)
end
