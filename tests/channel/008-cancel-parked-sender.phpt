--TEST--
Channel: a parked sender that is cancelled (coroutine cancel or token) has its value withdrawn, never delivered
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, AsyncCancellation, OperationCanceledException};
use function Async\{spawn, await, suspend, delay};

// Rendezvous: s1 waits in the slot, is cancelled; s2 parks after it. The receiver must get s2's
// value only: it withdraws s1's value, grants the slot to s2 and parks until s2 moves its value in.
$ch = new Channel();
$s1 = spawn(function () use ($ch) {
    try {
        $ch->send("withdrawn");
        echo "s1 delivered?!\n";
    } catch (AsyncCancellation $e) {
        echo "s1: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
});
$s2 = spawn(function () use ($ch) { $ch->send("kept"); echo "s2 delivered\n"; });
suspend();
$s1->cancel();
var_dump($ch->recv());
await($s1);
await($s2);
var_dump(count($ch), $ch->sendAsync("x"), count($ch)); // nothing left: the slot is free

// Cancelled while parked on a full buffer: the buffered values stay, the parked value is gone.
$ch = new Channel(1);
$ch->send(1);
$s = spawn(function () use ($ch) { $ch->send("withdrawn"); });
suspend();
$s->cancel();
try { await($s); } catch (AsyncCancellation $e) { echo "await: ", $e->getMessage(), "\n"; }
var_dump($ch->recv(), count($ch), $ch->sendAsync(2), $ch->recv());

// Token: a coroutine that fails; the parked send is cancelled with OperationCanceledException
// (previous = the token's error) and its value is withdrawn.
$ch = new Channel();
$token = spawn(function () { delay(20); throw new RuntimeException("token fired"); });
$s = spawn(function () use ($ch, $token) {
    try {
        $ch->send("withdrawn", $token);
    } catch (OperationCanceledException $e) {
        echo "token: ", $e->getMessage(), " / ", get_class($e->getPrevious()), ": ", $e->getPrevious()->getMessage(), "\n";
    }
});
await($s);
$late = spawn(function () use ($ch) { $ch->send("late"); });
var_dump($ch->recv());
await($late);
try { await($token); } catch (RuntimeException $e) { echo "token result: ", $e->getMessage(), "\n"; }

// Not parked any more: the value was taken, then the cancel came before the sender ran. send()
// returns (the value is delivered); the cancellation is thrown at the next suspension point.
$ch = new Channel();
$s = spawn(function () use ($ch) {
    $ch->send("delivered");
    echo "send returned\n";
    try {
        Async\suspend();
    } catch (AsyncCancellation $e) {
        echo "then: ", $e->getMessage(), "\n";
    }
});
suspend();
var_dump($ch->recv());
$s->cancel();
await($s);
?>
--EXPECT--
s1: Async\AsyncCancellation: Coroutine cancelled
s2 delivered
string(4) "kept"
int(0)
bool(true)
int(1)
await: Coroutine cancelled
int(1)
int(0)
bool(true)
int(2)
token: Operation has been cancelled / RuntimeException: token fired
string(4) "late"
token result: token fired
string(9) "delivered"
send returned
then: Coroutine cancelled
