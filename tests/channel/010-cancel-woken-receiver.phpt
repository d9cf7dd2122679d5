--TEST--
Channel: a receiver handed a value but cancelled before it ran gives the value back (next receiver, or the front of the buffer)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, AsyncCancellation};
use function Async\{spawn, await, suspend};

function receiver(Channel $ch, string $name) {
    return spawn(function () use ($ch, $name) {
        try {
            $v = $ch->recv();
            echo "$name got $v\n";
        } catch (AsyncCancellation $e) {
            echo "$name cancelled\n";
        }
    });
}

// Two parked receivers: r1 is handed "a", then cancelled before it runs: r2 gets "a".
$ch = new Channel();
$r1 = receiver($ch, "r1");
$r2 = receiver($ch, "r2");
suspend();
var_dump($ch->sendAsync("a"), count($ch));
$r1->cancel();
await($r1);
await($r2);
var_dump(count($ch));

// Nobody else waits: the value goes back to the front of the buffer, ahead of newer values,
// even if that overfills the buffer for a moment.
$ch = new Channel(1);
$r = receiver($ch, "r");
suspend();
$ch->send("first");      // handed to r
$ch->send("second");     // buffered: the buffer is full now
$r->cancel();
await($r);
var_dump(count($ch), $ch->isFull(), $ch->sendAsync("third"));
var_dump($ch->recv(), $ch->recv(), count($ch));

// Closed meanwhile: the given-back value is still drained before the ChannelException.
$ch = new Channel();
$r = receiver($ch, "r");
suspend();
$ch->sendAsync("kept");
$ch->close();
$r->cancel();
await($r);
var_dump($ch->recv());
try { $ch->recv(); } catch (Async\ChannelException $e) { echo $e->getMessage(), "\n"; }

// Rendezvous: the given-back value fills the one slot, so a sender parks. Taking the given-back
// value frees the slot: the sender is granted it and moves its value in when it runs, handing it
// to the second recv(), which parked until then.
$ch = new Channel();
$r = receiver($ch, "r");
suspend();
$ch->sendAsync("given back");
$r->cancel();
await($r);
$s = spawn(function () use ($ch) { $ch->send("rendezvous"); echo "sender woken\n"; });
suspend();
var_dump($ch->recv(), count($ch));
echo "before second recv\n";
var_dump($ch->recv());
await($s);
?>
--EXPECT--
bool(true)
int(1)
r1 cancelled
r2 got a
int(0)
r cancelled
int(2)
bool(true)
bool(false)
string(5) "first"
string(6) "second"
int(0)
r cancelled
string(4) "kept"
Channel is closed
r cancelled
string(10) "given back"
int(0)
before second recv
sender woken
string(10) "rendezvous"
