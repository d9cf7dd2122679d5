--TEST--
Channel: foreach receives until closed and drained; keys count from 0; getIterator(); by-ref iteration is an Error
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, AsyncCancellation};
use function Async\{spawn, await, suspend, delay};

$ch = new Channel(2);
$p = spawn(function () use ($ch) {
    foreach (["a", "b", "c", "d", "e"] as $v) {
        $ch->send($v);
    }
    $ch->close();
});
foreach ($ch as $k => $v) {
    echo "$k => $v\n";
}
await($p);

// Closed and empty: no iteration at all. Closed with values: they are drained.
foreach ($ch as $v) { echo "never\n"; }
$ch = new Channel(3);
$ch->send(1); $ch->send(2); $ch->close();
var_dump(iterator_to_array($ch));

// break leaves the rest in the channel; a new foreach goes on from there.
$ch = new Channel(5);
foreach ([1, 2, 3, 4, 5] as $v) { $ch->send($v); }
$ch->close();
foreach ($ch as $v) { echo "first loop $v\n"; if ($v === 2) break; }
foreach ($ch as $k => $v) { echo "second loop $k => $v\n"; }

// getIterator() gives an \Iterator driving the same receive loop.
$ch = new Channel(2);
$ch->send("x"); $ch->send("y"); $ch->close();
$it = $ch->getIterator();
var_dump($it instanceof Iterator);
$it->rewind();
while ($it->valid()) {
    echo $it->key(), ": ", $it->current(), "\n";
    $it->next();
}

// By reference: Error.
$ch = new Channel(1);
try {
    foreach ($ch as &$v) {}
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}

// A cancellation while the loop waits propagates out of foreach.
$ch = new Channel();
$c = spawn(function () use ($ch) {
    try {
        foreach ($ch as $v) { echo "got $v\n"; }
    } catch (AsyncCancellation $e) {
        echo "loop cancelled: ", $e->getMessage(), "\n";
    }
});
suspend();
$ch->send("one");
suspend();
$c->cancel();
await($c);

// Several consumers iterate one channel: each value once.
$ch = new Channel(4);
$cs = [];
for ($i = 0; $i < 3; $i++) {
    $cs[] = spawn(function () use ($ch) { $n = 0; foreach ($ch as $v) { $n += $v; delay(1); } return $n; });
}
for ($i = 1; $i <= 100; $i++) { $ch->send($i); }
$ch->close();
echo "total ", array_sum(array_map(fn($c) => await($c), $cs)), "\n";
?>
--EXPECT--
0 => a
1 => b
2 => c
3 => d
4 => e
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
first loop 1
first loop 2
second loop 0 => 3
second loop 1 => 4
second loop 2 => 5
bool(true)
0: x
1: y
Error: Cannot iterate channel by reference
got one
loop cancelled: Coroutine cancelled
total 5050
