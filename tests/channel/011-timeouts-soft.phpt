--TEST--
Channel: soft no-producer / no-consumer timeouts close the channel (NO_PRODUCERS / NO_CONSUMERS); armed only while someone waits
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, ChannelException};
use function Async\{spawn, await, delay};

function ms(int $t0): float { return (hrtime(true) - $t0) / 1e6; }

// A receiver waits with nobody producing; main's delay keeps the loop alive meanwhile.
$ch = new Channel(0, noProducerTimeout: 50);
$t0 = hrtime(true);
$r = spawn(function () use ($ch, $t0) {
    try {
        $ch->recv();
    } catch (ChannelException $e) {
        printf("recv: %s (%s) after >= 45 ms: %s\n", $e->getMessage(), $e->reason->name, var_export(ms($t0) >= 45, true));
    }
});
delay(300);
await($r);
var_dump($ch->isClosed());
$ch->close(); // the first reason wins
try { $ch->recv(); } catch (ChannelException $e) { echo "after close(): ", $e->reason->name, "\n"; }

// A sender waits with nobody consuming.
$ch = new Channel(1, noConsumerTimeout: 50);
$ch->send("buffered");
$t0 = hrtime(true);
$s = spawn(function () use ($ch, $t0) {
    try {
        $ch->send("parked");
    } catch (ChannelException $e) {
        printf("send: %s (%s) after >= 45 ms: %s\n", $e->getMessage(), $e->reason->name, var_export(ms($t0) >= 45, true));
    }
});
delay(300);
await($s);
var_dump($ch->recv());  // buffered values survive the close

// Nobody waits: no timer runs, the channel stays open however long it is idle.
$ch = new Channel(2, 30, 30);
$ch->send(1);
delay(120);
var_dump($ch->isClosed(), $ch->recv());
delay(120);
var_dump($ch->isClosed(), $ch->sendAsync(2));

// The wait of a receiver that got its value is over: its timer is disarmed.
$ch = new Channel(0, 300);
$r = spawn(function () use ($ch) { return $ch->recv(); });
delay(10);
$ch->send("in time");
var_dump(await($r));
delay(400);
var_dump($ch->isClosed());
?>
--EXPECT--
recv: Channel deadlock: no producers (NO_PRODUCERS) after >= 45 ms: true
bool(true)
after close(): NO_PRODUCERS
send: Channel deadlock: no consumers (NO_CONSUMERS) after >= 45 ms: true
string(8) "buffered"
bool(false)
int(1)
bool(false)
bool(true)
string(7) "in time"
bool(false)
