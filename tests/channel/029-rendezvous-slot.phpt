--TEST--
Channel: sendAsync() on an unbuffered channel with no receiver parks one value in the rendezvous slot (true); the next recv()/recvAsync()/foreach gets it; a second one is refused; a blocking send() still waits for its receiver; close() rolls the slot back
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, ChannelException};
use function Async\{spawn, await, suspend};

final class Msg
{
    public function __construct(public string $name) {}
    public function __destruct() { echo "destroyed {$this->name}\n"; }
}

$ch = new Channel();
var_dump($ch->sendAsync("first"), $ch->sendAsync("second"), count($ch), $ch->isEmpty(), $ch->isFull());
var_dump($ch->recv(), count($ch), $ch->isEmpty());

/* recvAsync() takes it too */
$ch->sendAsync("async");
var_dump(await($ch->recvAsync()));

/* the slot does not turn send() into a buffered send: the sender returns only when its own value
 * is taken, after the slot's */
$ch->sendAsync("slot");
$log = [];
$sender = spawn(function () use ($ch, &$log) {
    $ch->send("blocking");
    $log[] = 'send returned';
});
suspend();
suspend();
$log[] = 'sender parked: ' . json_encode($sender->isCompleted());
$log[] = 'got ' . $ch->recv();      // the slot's value; the sender still waits
suspend();
$log[] = 'sender after slot taken: ' . json_encode($sender->isCompleted());
$log[] = 'got ' . $ch->recv();      // the sender's own value
await($sender);
echo implode("\n", $log), "\n";

/* foreach sees the slot's value */
$ch->sendAsync("looped");
$reader = spawn(function () use ($ch) {
    foreach ($ch as $v) {
        echo "foreach: $v\n";
    }
    echo "foreach ended\n";
});
suspend();
$ch->close();
await($reader);

/* close() rolls the slot back: the value is gone (destroyed at once), recv() throws */
$ch = new Channel();
var_dump($ch->sendAsync(new Msg("parked")));
echo "closing\n";
$ch->close();
echo "closed\n";
var_dump(count($ch));
try {
    $ch->recv();
} catch (ChannelException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($ch->sendAsync("after close"));

/* buffered channels are unchanged: no extra slot beyond the capacity */
$b = new Channel(1);
var_dump($b->sendAsync(1), $b->sendAsync(2), count($b));
?>
--EXPECT--
bool(true)
bool(false)
int(1)
bool(false)
bool(true)
string(5) "first"
int(0)
bool(true)
string(5) "async"
sender parked: false
got slot
sender after slot taken: false
got blocking
send returned
foreach: looped
foreach ended
bool(true)
closing
destroyed parked
closed
int(0)
Async\ChannelException: Channel is closed
bool(false)
bool(true)
bool(false)
int(1)
