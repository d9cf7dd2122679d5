--TEST--
Channel: rendezvous (capacity 0): send() waits for a receiver; count() includes values promised to woken receivers
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await, suspend};

$ch = new Channel();
// sendAsync() with no receiver parks one value in the rendezvous slot (tests/channel/029)
var_dump($ch->sendAsync(0), $ch->isFull(), count($ch), $ch->recv(), count($ch));

$sender = spawn(function () use ($ch) {
    echo "send 1\n";
    $ch->send(1);
    echo "sent 1\n";
    $ch->send(2);
    echo "sent 2\n";
});
suspend();               // the sender parks: nobody receives yet
echo "main receives\n";
var_dump($ch->recv());   // takes the parked sender's value and wakes it
var_dump($ch->recv());
await($sender);

// A receiver parks; sendAsync() hands the value over at once; until the receiver runs the value
// is promised to it, so count() still reports it and nobody else can take it.
$receiver = spawn(function () use ($ch) {
    $v = $ch->recv();
    echo "receiver got $v\n";
});
suspend();
var_dump($ch->sendAsync("x"), count($ch), $ch->isEmpty());
await($receiver);
var_dump(count($ch), $ch->isEmpty());
?>
--EXPECT--
bool(true)
bool(true)
int(1)
int(0)
int(0)
send 1
main receives
int(1)
sent 1
sent 2
int(2)
bool(true)
int(1)
bool(false)
receiver got x
int(0)
bool(true)
