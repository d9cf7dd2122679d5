--TEST--
await_all: results keyed by input key, in input order (preserveKeyOrder) or completion order; fillNull puts failed keys in the results as null
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use function Async\await_all;

$values = ['first' => 1, 7 => new RuntimeException('seven'), 'third' => 3, 2 => 'two', 'last' => new LogicException('last')];
$order = ['last', 2, 'third', 'first', 7];

foreach ([[true, false], [false, false], [true, true], [false, true]] as [$preserve, $fillNull]) {
    echo "preserveKeyOrder=", var_export($preserve, true), " fillNull=", var_export($fillNull, true), "\n";
    [$results, $errors] = await_all(ordered_coroutines($values, $order), null, $preserve, $fillNull);
    echo "  results: ", json_encode($results), " keys ", json_encode(array_keys($results)), "\n";
    echo "  errors:  ", json_encode(array_map(fn($e) => get_class($e) . ':' . $e->getMessage(), $errors)),
        " keys ", json_encode(array_keys($errors)), "\n";
}

// The same with futures (completed by a driver, not coroutines).
[$results, $errors] = await_all(ordered_futures(['x' => 'X', 'y' => new Exception('Y'), 'z' => 'Z'], ['z', 'y', 'x']), null, false, true);
echo "futures, completion order: ", json_encode($results), " / ", json_encode(array_keys($errors)), "\n";
[$results, $errors] = await_all(ordered_futures(['x' => 'X', 'y' => new Exception('Y'), 'z' => 'Z'], ['z', 'y', 'x']));
echo "futures, input order: ", json_encode($results), " / ", json_encode(array_keys($errors)), "\n";

// A packed list keeps its integer keys (a list in, a list out when nothing failed).
[$results] = await_all(ordered_coroutines(['a', 'b', 'c'], [2, 0, 1]));
var_dump(array_is_list($results), $results);
[$results] = await_all(ordered_coroutines(['a', 'b', 'c'], [2, 0, 1]), null, false);
var_dump($results);
?>
--EXPECT--
preserveKeyOrder=true fillNull=false
  results: {"first":1,"third":3,"2":"two"} keys ["first","third",2]
  errors:  {"7":"RuntimeException:seven","last":"LogicException:last"} keys [7,"last"]
preserveKeyOrder=false fillNull=false
  results: {"2":"two","third":3,"first":1} keys [2,"third","first"]
  errors:  {"last":"LogicException:last","7":"RuntimeException:seven"} keys ["last",7]
preserveKeyOrder=true fillNull=true
  results: {"first":1,"7":null,"third":3,"2":"two","last":null} keys ["first",7,"third",2,"last"]
  errors:  {"7":"RuntimeException:seven","last":"LogicException:last"} keys [7,"last"]
preserveKeyOrder=false fillNull=true
  results: {"last":null,"2":"two","third":3,"first":1,"7":null} keys ["last",2,"third","first",7]
  errors:  {"last":"LogicException:last","7":"RuntimeException:seven"} keys ["last",7]
futures, completion order: {"z":"Z","y":null,"x":"X"} / ["y"]
futures, input order: {"x":"X","z":"Z"} / ["y"]
bool(true)
array(3) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
  [2]=>
  string(1) "c"
}
array(3) {
  [2]=>
  string(1) "c"
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
}
