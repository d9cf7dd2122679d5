--TEST--
Future: a FutureState completed by a coroutine wakes every awaiter (await(), Future::await(), main and coroutines)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, delay};

$state = new FutureState();
$future = new Future($state);
$other = new Future($state); // a second reader of the same state

$waiters = [];
for ($i = 0; $i < 3; $i++) {
    $waiters[] = spawn(function () use ($future, $i) {
        $v = $i % 2 ? await($future) : $future->await();
        return "waiter $i got " . json_encode($v);
    });
}
spawn(function () use ($state) {
    delay(10);
    echo "completing\n";
    $state->complete(['answer' => 42]);
    echo "completed, nobody ran yet\n";
});

var_dump($future->isCompleted());
var_dump(await($other));
foreach ($waiters as $w) {
    echo await($w), "\n";
}
var_dump($future->isCompleted(), $state->isCompleted(), $other->isCompleted(), $future->isCancelled());

// Objects are shared, not copied; a value completed from the main flow.
$obj = new stdClass;
$s2 = new FutureState();
$f2 = new Future($s2);
$s2->complete($obj);
var_dump($f2->await() === $obj, await($f2) === $obj);

// complete(null) and Future::completed() with no argument.
$s3 = new FutureState();
$s3->complete(null);
var_dump((new Future($s3))->await(), Future::completed()->await(), Future::completed(false)->await());
?>
--EXPECT--
bool(false)
completing
completed, nobody ran yet
array(1) {
  ["answer"]=>
  int(42)
}
waiter 0 got {"answer":42}
waiter 1 got {"answer":42}
waiter 2 got {"answer":42}
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
NULL
NULL
bool(false)
