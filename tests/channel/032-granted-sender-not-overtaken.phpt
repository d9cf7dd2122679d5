--TEST--
Channel: after recv() takes a rendezvous value, the next parked sender is granted the one slot: a sendAsync() cannot jump ahead of it, and a receiver that drains faster parks until the sender moves its value in
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await, suspend};

$ch = new Channel();
$log = [];
$s1 = spawn(function () use ($ch, &$log) { $ch->send('a'); $log[] = 's1 sent a'; });
$s2 = spawn(function () use ($ch, &$log) { $ch->send('b'); $log[] = 's2 sent b'; });
suspend();                      // s1 waits in the slot, s2 is parked behind it
$log[] = 'parked: ' . json_encode([$s1->isCompleted(), $s2->isCompleted(), count($ch)]);

$got = [$ch->recv()];           // 'a': the slot is granted to s2, reserved until it runs
$log[] = 'main got ' . $got[0];
for ($i = 1; $i <= 3; $i++) {
    // Refused while the slot is s2's; once s2 has delivered, the slot is free again.
    $log[] = "sendAsync x$i: " . json_encode($ch->sendAsync("x$i"));
    $got[] = $v = $ch->recv();
    $log[] = "main got $v";
}
$log[] = 's2 completed: ' . json_encode($s2->isCompleted());
if (!$s2->isCompleted()) {
    $got[] = $ch->recv();       // the old module: s2 would have waited for ever
}
await($s1);
await($s2);
echo implode("\n", $log), "\n";
echo 'received: ', implode(',', $got), "\n";
var_dump(count($ch), $ch->isEmpty());
?>
--EXPECT--
parked: [false,false,1]
main got a
sendAsync x1: false
s1 sent a
s2 sent b
main got b
sendAsync x2: true
main got x2
sendAsync x3: true
main got x3
s2 completed: true
received: a,b,x2,x3
int(0)
bool(true)
