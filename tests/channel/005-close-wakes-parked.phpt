--TEST--
Channel: close() wakes parked receivers and senders with ChannelException; a rendezvous sender whose value was taken is not failed
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, ChannelException};
use function Async\{spawn, await, suspend};

function attempt(string $who, callable $fn) {
    return spawn(function () use ($who, $fn) {
        try {
            $r = $fn();
            echo "$who: ok ", var_export($r, true), "\n";
        } catch (ChannelException $e) {
            echo "$who: ", $e->getMessage(), " (", $e->reason->name, ")\n";
        }
    });
}

// Receivers parked on an empty channel.
$ch = new Channel(2);
$r = [attempt("r1", fn() => $ch->recv()), attempt("r2", fn() => $ch->recv())];
suspend();
echo "close\n";
$ch->close();
foreach ($r as $c) { await($c); }

// Senders parked on a full channel: their values are withdrawn, buffered ones stay for recv().
$ch = new Channel(1);
$ch->send("kept");
$s = [attempt("s1", fn() => $ch->send("lost1")), attempt("s2", fn() => $ch->send("lost2"))];
suspend();
echo "close\n";
$ch->close();
foreach ($s as $c) { await($c); }
var_dump($ch->recv());
try { $ch->recv(); } catch (ChannelException $e) { echo "drained: ", $e->getMessage(), "\n"; }

// Rendezvous: the value was taken (sender woken with success), then the channel closes before
// the sender runs: the sender is not failed. A second parked sender is.
$ch = new Channel();
$a = attempt("taken", function () use ($ch) { $ch->send("v"); return "delivered"; });
$b = attempt("parked", function () use ($ch) { $ch->send("w"); return "delivered"; });
suspend();
var_dump($ch->recv());
$ch->close();
await($a);
await($b);
?>
--EXPECT--
close
r1: Channel is closed (EXPLICIT)
r2: Channel is closed (EXPLICIT)
close
s1: Channel is closed (EXPLICIT)
s2: Channel is closed (EXPLICIT)
string(4) "kept"
drained: Channel is closed
string(1) "v"
taken: ok 'delivered'
parked: Channel is closed (EXPLICIT)
