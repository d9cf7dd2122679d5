--TEST--
Channel: parked receivers and senders are served in FIFO order; values keep their order
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await, suspend};

// Receivers park in order r0..r4; values 0..4 go to them in that order.
$ch = new Channel(0);
$log = [];
$rs = [];
for ($i = 0; $i < 5; $i++) {
    $rs[] = spawn(function () use ($ch, $i, &$log) {
        $v = $ch->recv();
        $log[] = "r$i<-$v";
    });
}
suspend();
for ($i = 0; $i < 5; $i++) {
    $ch->sendAsync($i);
}
foreach ($rs as $r) { await($r); }
echo implode(" ", $log), "\n";

// Senders park in order s0..s4 on a full buffer; receiving drains the buffer, then their values in order.
$ch = new Channel(2);
$ch->send("b0");
$ch->send("b1");
$ss = [];
for ($i = 0; $i < 5; $i++) {
    $ss[] = spawn(function () use ($ch, $i) { $ch->send("s$i"); });
}
suspend();
$got = [];
for ($i = 0; $i < 7; $i++) {
    $got[] = $ch->recv();
}
foreach ($ss as $s) { await($s); }
echo implode(" ", $got), "\n";

// Reservation: a value handed to a woken receiver cannot be taken by a later recv()/sendAsync()
// caller that did not wait.
$ch = new Channel(1);
$early = spawn(function () use ($ch) { return $ch->recv(); });
suspend();
$ch->send("for-early");          // handed to the parked receiver, not buffered
var_dump(count($ch), $ch->sendAsync("buffered"), count($ch));
var_dump($ch->recv());           // the unreserved value, not the promised one
var_dump(await($early));
?>
--EXPECT--
r0<-0 r1<-1 r2<-2 r3<-3 r4<-4
b0 b1 s0 s1 s2 s3 s4
int(1)
bool(true)
int(2)
string(8) "buffered"
string(9) "for-early"
