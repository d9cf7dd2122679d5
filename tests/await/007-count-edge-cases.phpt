--TEST--
await_any_of / await_any_of_or_fail: count 0, count above the number of triggers (returns what completes, no hang), negative count
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use function Async\{await_any_of_or_fail, await_any_of, await_all, spawn};

// count 0: nothing is awaited, nothing is even looked at.
var_dump(await_any_of_or_fail(0, [1, 2, 'not awaitable']));
var_dump(await_any_of(0, ['not awaitable']));

// count > number of triggers: all of them, then return.
$t = ordered_coroutines(['a' => 'A', 'b' => 'B'], ['b', 'a']);
echo json_encode(await_any_of_or_fail(5, $t)), "\n";
$t = ordered_coroutines(['a' => 'A', 'b' => new Exception('B'), 'c' => 'C'], ['b', 'c', 'a']);
echo json_encode(pair_summary(await_any_of(10, $t))), "\n";
// ... also from a generator, whose length is not known in advance.
$gen = (function () { yield 'x' => spawn(fn() => 'X'); yield 'y' => spawn(fn() => 'Y'); })();
echo json_encode(await_any_of_or_fail(PHP_INT_MAX, $gen)), "\n";

// Exactly count successes; the errors do not count towards it.
$t = ordered_coroutines(['a' => new Exception('a'), 'b' => 'B', 'c' => new Exception('c'), 'd' => 'D', 'e' => 'E'], ['a', 'b', 'c', 'd', 'e']);
echo json_encode(pair_summary(await_any_of(2, $t))), "\n";
// Not enough successes: what completed.
$t = ordered_coroutines(['a' => new Exception('a'), 'b' => 'B', 'c' => new Exception('c')], ['a', 'b', 'c']);
echo json_encode(pair_summary(await_any_of(2, $t))), "\n";

foreach ([-1, PHP_INT_MIN] as $count) {
    try { await_any_of_or_fail($count, []); } catch (ValueError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
    try { await_any_of($count, []); } catch (ValueError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
}
?>
--EXPECT--
array(0) {
}
array(2) {
  [0]=>
  array(0) {
  }
  [1]=>
  array(0) {
  }
}
{"a":"A","b":"B"}
[{"a":"A","c":"C"},{"b":"B"}]
{"x":"X","y":"Y"}
[{"b":"B","d":"D"},{"a":"a","c":"c"}]
[{"b":"B"},{"a":"a","c":"c"}]
ValueError: Async\await_any_of_or_fail(): Argument #1 ($count) must be greater than or equal to 0
ValueError: Async\await_any_of(): Argument #1 ($count) must be greater than or equal to 0
ValueError: Async\await_any_of_or_fail(): Argument #1 ($count) must be greater than or equal to 0
ValueError: Async\await_any_of(): Argument #1 ($count) must be greater than or equal to 0
