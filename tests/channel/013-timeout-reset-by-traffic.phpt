--TEST--
Channel: traffic restarts the wait of whoever still waits (the timer is reset, not cumulative)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, ChannelException};
use function Async\{spawn, await, delay};

function ms(int $t0): float { return (hrtime(true) - $t0) / 1e6; }

// One receiver loops with a 300 ms no-producer timeout; values come five times every 20 ms, then
// five times every 100 ms (600 ms in all, twice the timeout): no close while they flow; closed
// ~300 ms after the last one.
$ch = new Channel(0, 300);
$t0 = hrtime(true);
$last = 0;
$r = spawn(function () use ($ch, &$last) {
    $n = 0;
    try {
        for (;;) {
            $ch->recv();
            $n++;
        }
    } catch (ChannelException $e) {
        $quiet = (hrtime(true) - $last) / 1e6;
        printf("received %d, then %s; quiet for >= 290 ms: %s\n", $n, $e->reason->name, var_export($quiet >= 290, true));
    }
});
for ($i = 0; $i < 10; $i++) {
    delay($i < 5 ? 20 : 100);
    $ch->send($i);
    $last = hrtime(true);
}
delay(800); // keeps the loop alive: soft timers alone would let the deadlock resolver step in
await($r);

// Two receivers wait from t=0 with a 300 ms timeout; at ~50 ms one gets a value. The other one
// waits on: the channel closes ~300 ms after that traffic, not 300 ms after t=0.
$ch = new Channel(0, 300);
$t0 = hrtime(true);
$rs = [];
for ($i = 0; $i < 2; $i++) {
    $rs[] = spawn(function () use ($ch, $t0) {
        try {
            return "value " . $ch->recv();
        } catch (ChannelException $e) {
            return sprintf("%s after >= 340 ms: %s", $e->reason->name, var_export(ms($t0) >= 340, true));
        }
    });
}
delay(50);
$ch->send(1);
delay(800);
foreach ($rs as $r) {
    echo await($r), "\n";
}
?>
--EXPECT--
received 10, then NO_PRODUCERS; quiet for >= 290 ms: true
value 1
NO_PRODUCERS after >= 340 ms: true
