--TEST--
Channel: recv(), send() and foreach work at top level before anything was spawned (the scheduler starts on demand)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, ChannelException};

// Nothing waits: no scheduler is needed at all.
$ch = new Channel(1);
$ch->send("buffered");
var_dump($ch->recv(), count(Async\get_coroutines()));

// The first wait of the script launches the scheduler; main becomes a coroutine and parks.
$ch = new Channel(0, 30, 0, true);
try {
    $ch->recv();
} catch (ChannelException $e) {
    echo $e->getMessage(), "\n";
}
var_dump(count(Async\get_coroutines()));

// A top-level send handed over to a coroutine, then a top-level foreach.
$ch = new Channel();
$out = new Channel(4);
Async\spawn(function () use ($ch, $out) {
    $out->send("got " . $ch->recv());
    $out->send("and " . $ch->recv());
    $out->close();
});
$ch->send(1);
$ch->send(2);
foreach ($out as $line) {
    echo $line, "\n";
}
?>
--EXPECT--
string(8) "buffered"
int(0)
Channel deadlock: no producers
int(1)
got 1
and 2
