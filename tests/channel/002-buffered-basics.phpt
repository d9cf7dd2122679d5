--TEST--
Channel: buffered FIFO, sendAsync(), count()/isEmpty()/isFull(), any value type
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Channel;

$ch = new Channel(3);
var_dump($ch->sendAsync("a"), $ch->sendAsync(["b" => 1]), $ch->sendAsync(null));
var_dump($ch->sendAsync("overflow"));
var_dump(count($ch), $ch->count(), $ch->isEmpty(), $ch->isFull());
var_dump($ch->recv(), $ch->recv(), $ch->recv());
var_dump(count($ch), $ch->isEmpty(), $ch->isFull());

// Values are passed as PHP passes them: objects by handle, arrays by value.
$o = new stdClass;
$a = [1, 2];
$ch->send($o);
$ch->send($a);
$a[] = 3;
$o->x = 1;
var_dump($ch->recv() === $o, $ch->recv());

// The ring wraps and grows: many rounds of fill and drain, in order.
$big = new Channel(1000);
$n = 0;
for ($round = 0; $round < 3; $round++) {
    for ($i = 0; $i < 1000; $i++) {
        $big->send($round * 1000 + $i);
    }
    var_dump($big->sendAsync(-1), count($big));
    for ($i = 0; $i < 700; $i++) {
        $v = $big->recv();
        if ($v !== $n++) { echo "out of order: $v\n"; }
    }
    for ($i = 0; $i < 700; $i++) {
        $big->send(-2);
    }
    while (count($big) > 0) {
        $big->recv();
    }
    $n = ($round + 1) * 1000;
}
echo "ring ok\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
int(3)
int(3)
bool(false)
bool(true)
string(1) "a"
array(1) {
  ["b"]=>
  int(1)
}
NULL
int(0)
bool(true)
bool(false)
bool(true)
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
bool(false)
int(1000)
bool(false)
int(1000)
bool(false)
int(1000)
ring ok
