--TEST--
Channel: hard timeouts keep the loop alive and fire even when nothing else runs (no deadlock)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, ChannelException};
use function Async\{spawn, await};

function ms(int $t0): float { return (hrtime(true) - $t0) / 1e6; }

// Main waits alone: the hard timer is the only active event.
$ch = new Channel(0, 50, 0, true);
$t0 = hrtime(true);
try {
    $ch->recv();
} catch (ChannelException $e) {
    printf("recv: %s (%s), >= 45 ms: %s\n", $e->getMessage(), $e->reason->name, var_export(ms($t0) >= 45, true));
}

$ch = new Channel(0, 0, 50, true);
$t0 = hrtime(true);
try {
    $ch->send("x");
} catch (ChannelException $e) {
    printf("send: %s (%s), >= 45 ms: %s\n", $e->getMessage(), $e->reason->name, var_export(ms($t0) >= 45, true));
}

// A coroutine still waits when the script ends: the drain runs until its hard timer fires.
$ch = new Channel(0, 40, 0, true);
spawn(function () use ($ch) {
    try {
        $ch->recv();
    } catch (ChannelException $e) {
        echo "after the script: ", $e->getMessage(), "\n";
    }
});
echo "script end\n";
?>
--EXPECT--
recv: Channel deadlock: no producers (NO_PRODUCERS), >= 45 ms: true
send: Channel deadlock: no consumers (NO_CONSUMERS), >= 45 ms: true
script end
after the script: Channel deadlock: no producers
