--TEST--
Future: long chains (an error passing through 50000 map() links settles without recursion; 3000 running links)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await};

// Pass-through links settle iteratively: no C stack growth, even inside a coroutine.
echo await(spawn(function () {
    $s = new FutureState();
    $tail = new Future($s);
    for ($i = 0; $i < 50000; $i++) {
        $tail = $tail->map(fn($v) => $v + 1);
    }
    $tail = $tail->catch(fn($e) => "caught: " . $e->getMessage());
    $s->error(new Exception("deep"));
    return $tail->await();
})), "\n";

// The same on finished futures, built link by link.
$tail = Future::completed(0);
for ($i = 0; $i < 50000; $i++) {
    $tail = $tail->catch(fn($e) => 0);
}
var_dump(await($tail));

// Links that run: each in a short coroutine, one after the other.
$tail = Future::completed(0);
for ($i = 0; $i < 3000; $i++) {
    $tail = $tail->map(fn($v) => $v + 1);
}
var_dump(await($tail));

// A wide fan-out: many children of one parent.
$s = new FutureState();
$parent = new Future($s);
$children = [];
for ($i = 0; $i < 2000; $i++) {
    $children[] = $parent->map(fn($v) => $v + $i);
}
$s->complete(1);
$sum = 0;
foreach ($children as $c) {
    $sum += await($c);
}
var_dump($sum);
?>
--EXPECT--
caught: deep
int(0)
int(3000)
int(2001000)
