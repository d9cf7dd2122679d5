--TEST--
Channel::isFull() counts only the buffer (not values handed to woken receivers, nor slots granted to woken senders); on a rendezvous channel it says whether the one slot holds a value
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await, suspend};

echo "-- rendezvous\n";
$ch = new Channel();
var_dump($ch->isFull());                    // the slot is empty
var_dump($ch->sendAsync('x'), $ch->isFull());
var_dump($ch->recv(), $ch->isFull());
$s = spawn(function () use ($ch) { $ch->send('y'); });
suspend();                                  // the sender waits in the slot
var_dump(count($ch), $ch->isFull(), $ch->sendAsync('refused'));
var_dump($ch->recv(), $ch->isFull());
await($s);
$r = spawn(function () use ($ch) { return $ch->recv(); });
suspend();
var_dump($ch->sendAsync('to r'), $ch->isFull()); // handed to the parked receiver, not in the slot
var_dump(await($r));

echo "-- buffered\n";
$ch = new Channel(2);
var_dump($ch->isFull());
$ch->sendAsync(1);
var_dump($ch->isFull());
$ch->sendAsync(2);
var_dump($ch->isFull(), $ch->sendAsync(3));
$ch->recv();
$ch->recv();
// 3 is handed to a receiver that has not run yet: counted, but not in the buffer
$r = spawn(function () use ($ch) { return $ch->recv(); });
suspend();
var_dump($ch->sendAsync(3), $ch->sendAsync(4), count($ch), $ch->isFull());
var_dump(await($r), $ch->recv());

echo "-- granted\n";
// The room freed by recv() is granted to the parked sender: reserved (sendAsync() is refused)
// but empty until the sender runs and moves its value in.
$ch = new Channel(1);
$ch->sendAsync('p');
$s = spawn(function () use ($ch) { $ch->send('q'); });
suspend();
var_dump($ch->isFull(), $ch->recv());
var_dump(count($ch), $ch->isFull(), $ch->sendAsync('r'));
await($s);
var_dump(count($ch), $ch->isFull(), $ch->recv());
?>
--EXPECT--
-- rendezvous
bool(false)
bool(true)
bool(true)
string(1) "x"
bool(false)
int(1)
bool(true)
bool(false)
string(1) "y"
bool(false)
bool(true)
bool(false)
string(4) "to r"
-- buffered
bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
int(2)
bool(false)
int(3)
int(4)
-- granted
bool(true)
string(1) "p"
int(0)
bool(false)
bool(false)
int(1)
bool(true)
string(1) "q"
