--TEST--
await_first_success: errors are skipped until the first success; if everything fails the result is null with all the errors
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use function Async\{await_first_success, spawn};

$values = ['a' => new RuntimeException('a'), 'b' => 'B', 'c' => new RuntimeException('c'), 'd' => 'D'];

// c fails, then a fails, then d succeeds: only the errors before d are reported.
var_export(pair_summary(await_first_success(ordered_coroutines($values, ['c', 'a', 'd', 'b']))));
echo "\n";

// The first one succeeds: no errors at all.
var_export(pair_summary(await_first_success(ordered_coroutines($values, ['b', 'a', 'c', 'd']))));
echo "\n";

// Everything fails.
$all = ['x' => new LogicException('x'), 'y' => new LogicException('y')];
[$result, $errors] = await_first_success(ordered_coroutines($all, ['y', 'x']));
var_dump($result);
var_dump(array_map(fn($e) => $e->getMessage(), $errors));
var_dump($errors['x'] === $all['x']);

// A null result is a success too (it is not "no result").
var_export(pair_summary(await_first_success([spawn(fn() => throw new Exception('boom')), spawn(fn() => null)])));
echo "\n";

// Futures.
var_export(pair_summary(await_first_success(ordered_futures(['p' => new Exception('p'), 'q' => 'Q'], ['p', 'q']))));
echo "\n";
?>
--EXPECT--
array (
  0 => 'D',
  1 => 
  array (
    'a' => 'a',
    'c' => 'c',
  ),
)
array (
  0 => 'B',
  1 => 
  array (
  ),
)
NULL
array(2) {
  ["x"]=>
  string(1) "x"
  ["y"]=>
  string(1) "y"
}
bool(true)
array (
  0 => NULL,
  1 => 
  array (
    0 => 'boom',
  ),
)
array (
  0 => 'Q',
  1 => 
  array (
    'p' => 'p',
  ),
)
