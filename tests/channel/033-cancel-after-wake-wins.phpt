--TEST--
Channel: a cancel() that reaches a coroutine woken by the channel but not yet run wins: its send()/recv() throws the cancellation, the slot or value passes to the next waiter, nothing is lost, duplicated or left waiting
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, AsyncCancellation};
use function Async\{spawn, await, suspend};

$log = [];
$sent = [];
$received = [];

function sender(Channel $ch, string $name, string $value) {
    return spawn(function () use ($ch, $name, $value) {
        global $log, $sent;
        try {
            $ch->send($value);
            $sent[] = $value;
            $log[] = "$name sent $value";
        } catch (AsyncCancellation $e) {
            $log[] = "$name: " . get_class($e);
        }
    });
}

function receiver(Channel $ch, string $name) {
    return spawn(function () use ($ch, $name) {
        global $log, $received;
        try {
            $received[] = $v = $ch->recv();
            $log[] = "$name got $v";
        } catch (AsyncCancellation $e) {
            $log[] = "$name: " . get_class($e);
        }
    });
}

// Buffered: recv() frees room, granted to s1 (parked first); s1 is cancelled before it runs, so
// its send() fails and 'a' is never delivered; the slot passes to s2, whose 'b' comes next. The
// second recv() parks until s2 has run.
echo "-- buffered\n";
$ch = new Channel(1);
$ch->send('z');
$sent[] = 'z';
$s1 = sender($ch, 's1', 'a');
$s2 = sender($ch, 's2', 'b');
suspend();
$received[] = $v = $ch->recv();
$log[] = "main got $v";
$s1->cancel();
$received[] = $v = $ch->recv();
$log[] = "main got $v";
await($s1);
await($s2);
$left = count($ch);
if ($ok = $ch->sendAsync('c')) {
    $sent[] = 'c';
}
$log[] = "left: $left, sendAsync: " . json_encode($ok);
while (count($ch) > 0) {
    $received[] = $ch->recv();
}
echo implode("\n", $log), "\n";

// Rendezvous: s3 waits in the slot, s4 and s5 are parked. Taking 'd' grants the slot to s4; s4
// is cancelled before it runs, and the receiver that drained faster gets s5's value.
echo "-- rendezvous\n";
$log = [];
$ch = new Channel();
$s3 = sender($ch, 's3', 'd');
$s4 = sender($ch, 's4', 'e');
$s5 = sender($ch, 's5', 'f');
suspend();
$received[] = $v = $ch->recv();
$log[] = "main got $v";
$s4->cancel();
$received[] = $v = $ch->recv();
$log[] = "main got $v";
await($s3);
await($s4);
await($s5);
$log[] = 'left: ' . count($ch);
echo implode("\n", $log), "\n";

// A receiver handed a value but cancelled before it ran: the value goes to the next receiver.
echo "-- receiver\n";
$log = [];
$ch = new Channel();
$r1 = receiver($ch, 'r1');
$r2 = receiver($ch, 'r2');
suspend();
$ch->send('g');
$sent[] = 'g';
$r1->cancel();
await($r1);
await($r2);
$log[] = 'left: ' . count($ch);
echo implode("\n", $log), "\n";

// Every value sent arrived exactly once; no other value arrived.
sort($sent);
sort($received);
echo "sent:     ", implode(',', $sent), "\n";
echo "received: ", implode(',', $received), "\n";
?>
--EXPECT--
-- buffered
main got z
s1: Async\AsyncCancellation
s2 sent b
main got b
left: 0, sendAsync: true
-- rendezvous
main got d
s3 sent d
s4: Async\AsyncCancellation
s5 sent f
main got f
left: 0
-- receiver
r1: Async\AsyncCancellation
r2 got g
left: 0
sent:     b,c,d,f,g,z
received: b,c,d,f,g,z
