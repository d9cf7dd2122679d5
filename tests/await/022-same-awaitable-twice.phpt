--TEST--
await_*: the same awaitable several times in one wait: each occurrence is its own trigger with its own key
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState};
use function Async\{await_all, await_any_of, await_any_or_fail, await_all_or_fail, spawn, suspend};

$c = spawn(fn() => 'C');
$state = new FutureState();
$f = new Future($state);
spawn(function () use ($state) { suspend(); $state->complete('F'); });
var_dump(await_all(['c1' => $c, 'f1' => $f, 'c2' => $c, 'f2' => $f, 'f3' => $f]));

// Counted once per occurrence.
$state = new FutureState();
$f = new Future($state);
spawn(function () use ($state) { suspend(); $state->complete('twice'); });
echo json_encode(await_any_of(2, ['a' => $f, 'b' => $f])), "\n";

// The same failing trigger twice: the error under both keys, thrown once.
$bad = spawn(fn() => throw new RuntimeException('bad'));
[, $errors] = await_all(['x' => $bad, 'y' => $bad]);
var_dump(array_keys($errors), $errors['x'] === $errors['y']);
try { await_all_or_fail([$bad, $bad]); } catch (RuntimeException $e) { echo "thrown: ", $e->getMessage(), "\n"; }

// From a generator, with a pending one raced against itself.
$state = new FutureState();
$f = new Future($state);
$gen = (function () use ($f) { yield 'one' => $f; yield 'two' => $f; })();
spawn(function () use ($state) { suspend(); suspend(); $state->complete('gen'); });
var_dump(await_any_or_fail($gen));
echo "subscribers left: ", count($state->getAwaitingInfo()), "\n";
?>
--EXPECT--
array(2) {
  [0]=>
  array(5) {
    ["c1"]=>
    string(1) "C"
    ["f1"]=>
    string(1) "F"
    ["c2"]=>
    string(1) "C"
    ["f2"]=>
    string(1) "F"
    ["f3"]=>
    string(1) "F"
  }
  [1]=>
  array(0) {
  }
}
[{"a":"twice","b":"twice"},[]]
array(2) {
  [0]=>
  string(1) "x"
  [1]=>
  string(1) "y"
}
bool(true)
thrown: bad
string(3) "gen"
subscribers left: 0
