--TEST--
Channel: a parked sender or receiver is listed as waiting for the channel (getAwaitingInfo()), alone or beside its cancellation token; the listing ends with the wait however it ends (a message, a cancel, the token, close()), and the channel is freed once nobody holds it
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
use Async\{Channel, FutureState, Future, OperationCanceledException, AsyncCancellation, ChannelException};
use function Async\{spawn, await, suspend};

function info(Async\Coroutine $c): string
{
    return implode(' | ', array_map(fn($s) => preg_replace('/#\d+/', '#N', $s), $c->getAwaitingInfo()));
}

$ch = new Channel();

// A receiver parked alone, then given a message.
$r = spawn(fn() => $ch->recv());
suspend();
echo "receiver parked: ", info($r), "\n";
$ch->send('a');
echo "receiver got: ", await($r), ", listed: [", info($r), "]\n";

// A sender parked alone, then taken.
$s = spawn(fn() => $ch->send('b'));
suspend();
echo "sender parked: ", info($s), "\n";
echo "main took: ", $ch->recv(), "\n";
await($s);

// Beside a token: both listed; the token fires; nothing stays listed and the next wait is clean.
$state = new FutureState();
$t = spawn(function () use ($ch, $state) {
    try {
        $ch->recv(new Future($state));
    } catch (OperationCanceledException $e) {
        echo "token fired: ", $e->getMessage(), "\n";
    }
    return $ch->recv(); // waits again, without the token
});
suspend();
echo "with a token: ", count($t->getAwaitingInfo()), " events: ", info($t), "\n";
$state->complete(1);
suspend();
echo "waiting again: ", info($t), "\n";
$ch->send('c');
echo "then got: ", await($t), "\n";

// Cancelled while parked: the listing and the queue both forget it.
$c = spawn(fn() => $ch->send('never'));
suspend();
$c->cancel();
try { await($c); } catch (AsyncCancellation $e) { echo "cancelled sender: ", $e->getMessage(), "\n"; }
var_dump(count($ch));                 // its value was withdrawn with it
echo "listed after cancel: [", info($c), "]\n";

// close() wakes every parked waiter.
$w1 = spawn(function () use ($ch) { try { $ch->recv(); } catch (ChannelException $e) { return 'closed'; } });
$w2 = spawn(function () use ($ch) { try { $ch->recv(); } catch (ChannelException $e) { return 'closed'; } });
suspend();
echo "two parked: ", info($w1), " / ", info($w2), "\n";
$ch->close();
echo "after close: ", await($w1), " ", await($w2), "\n";

// Many waits on one channel leave no reference behind: the channel goes with its last holder.
$ch2 = new Channel();
$weak = WeakReference::create($ch2);
$p = spawn(function () use ($ch2) { for ($i = 0; $i < 1000; $i++) { $ch2->send($i); } });
$q = spawn(function () use ($ch2) { $sum = 0; for ($i = 0; $i < 1000; $i++) { $sum += $ch2->recv(); } return $sum; });
echo "sum: ", await($q), "\n";
await($p);
unset($ch2, $p, $q);
var_dump($weak->get());
?>
--EXPECTF--
receiver parked: Channel(capacity=0, receivers=1, senders=0, buffered=0)
receiver got: a, listed: []
sender parked: Channel(capacity=0, receivers=0, senders=1, buffered=1)
main took: b
with a token: 2 events: %s | Channel(capacity=0, receivers=1, senders=0, buffered=0)
token fired: Operation has been cancelled
waiting again: Channel(capacity=0, receivers=1, senders=0, buffered=0)
then got: c
cancelled sender: %s
int(0)
listed after cancel: []
two parked: Channel(capacity=0, receivers=2, senders=0, buffered=0) / Channel(capacity=0, receivers=2, senders=0, buffered=0)
after close: closed closed
sum: 499500
NULL
