--TEST--
Channel: recvAsync() returns a Future: completed now, rejected when closed and drained, or pending in the FIFO of receivers; DISPOSED when the channel dies
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, Future, ChannelException};
use function Async\{spawn, await, suspend};

function outcome(Future $f): string {
    try {
        return "value " . var_export(await($f), true);
    } catch (ChannelException $e) {
        return get_class($e) . ": " . $e->getMessage() . " (" . $e->reason->name . ")";
    } catch (Throwable $e) {
        return get_class($e) . ": " . $e->getMessage();
    }
}

$ch = new Channel(2);
$ch->send(1);
$f = $ch->recvAsync();
var_dump($f instanceof Future, $f->isCompleted(), count($ch));
echo outcome($f), "\n";

// Pending: served in FIFO order together with parked coroutines.
$first = $ch->recvAsync();
$co = spawn(fn() => $ch->recv());
suspend();
$third = $ch->recvAsync();
var_dump($first->isCompleted());
$ch->send("a");
$ch->send("b");
$ch->send("c");
echo outcome($first), " / ", await($co), " / ", outcome($third), "\n";

// A future cancelled by its reader is skipped: the value goes to the next receiver.
$gone = $ch->recvAsync();
$next = $ch->recvAsync();
$gone->cancel();
var_dump($ch->sendAsync("d"), count($ch));
echo outcome($gone), "\n", outcome($next), "\n";

// Close: pending futures are rejected; buffered values are still drained first.
$pending = $ch->recvAsync();
$ch->close();
echo outcome($pending), "\n";
$ch = new Channel(1);
$ch->send("last");
$ch->close();
echo outcome($ch->recvAsync()), "\n", outcome($ch->recvAsync()), "\n";

// A pending future does not keep the channel alive: when it dies, the future learns why.
$orphan = (new Channel())->recvAsync();
echo outcome($orphan), "\n";

// A pending future nobody can read any more (its Future dropped, nothing chained) does not
// swallow a value; one with a chained callback still gets its value.
$ch = new Channel(1);
$ch->recvAsync();
var_dump($ch->sendAsync("kept"), count($ch));
$ch->recv();
$ch->recvAsync()->map(function ($v) { echo "mapped $v\n"; })->ignore();
$ch->sendAsync("chained");
Async\delay(1);
var_dump(count($ch));
?>
--EXPECTF--
bool(true)
bool(true)
int(0)
value 1
bool(false)
value 'a' / b / value 'c'
bool(true)
int(0)
Async\AsyncCancellation: Future has been cancelled
value 'd'
Async\ChannelException: Channel is closed (EXPLICIT)
value 'last'
Async\ChannelException: Channel is closed (EXPLICIT)
Async\ChannelException: Channel disposed (DISPOSED)

Warning: Future created at %s was never used; %s
bool(true)
int(1)
mapped chained
int(0)
