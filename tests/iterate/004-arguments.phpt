--TEST--
iterate(): argument checks (TypeError by ZPP for non-iterables, ValueError for a negative concurrency); arrays are iterated as they were passed
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{iterate, delay};

foreach ([42, "string", null, new stdClass, 1.5] as $bad) {
    try { iterate($bad, fn() => 1); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
}
try { iterate([1], "nope"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { iterate([1], fn() => 1, -1); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { iterate([1], fn() => 1, "x"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { iterate(); } catch (ArgumentCountError $e) { echo $e->getMessage(), "\n"; }

// The array is copied first: changes made by the callbacks are not seen by the iteration.
$arr = [1, 2, 3];
$seen = [];
iterate($arr, function ($v, $k) use (&$arr, &$seen) {
    $seen[] = $v;
    $arr[] = $v * 10;      // appended elements are not iterated
    unset($arr[2]);        // removed ones still are
    delay(1);
}, 1);
echo implode(",", $seen), " | ", implode(",", $arr), "\n";

// A referenced array behaves the same.
$ref = [1, 2];
$alias = &$ref;
iterate($ref, function ($v) use (&$alias) { $alias[] = 99; });
echo count($ref), "\n";

// Values and keys of any type from a generator.
function anykeys() { yield [1, 2] => new ArrayObject([]); yield 1.5 => null; yield null => "v"; }
iterate(anykeys(), function ($v, $k) { echo get_debug_type($k), " => ", get_debug_type($v), "\n"; });

// By-reference parameters get a copy.
$data = [1, 2];
iterate($data, function (&$v) { $v = 100; });
echo implode(",", $data), "\n";
?>
--EXPECTF--
Async\iterate(): Argument #1 ($iterable) must be of type Traversable|array, int given
Async\iterate(): Argument #1 ($iterable) must be of type Traversable|array, string given
Async\iterate(): Argument #1 ($iterable) must be of type Traversable|array, null given
Async\iterate(): Argument #1 ($iterable) must be of type Traversable|array, stdClass given
Async\iterate(): Argument #1 ($iterable) must be of type Traversable|array, float given
Async\iterate(): Argument #2 ($callback) must be a valid callback, function "nope" not found or invalid function name
Async\iterate(): Argument #3 ($concurrency) must be between 0 and 4294967295
Async\iterate(): Argument #3 ($concurrency) must be of type int, string given
Async\iterate() expects at least 2 arguments, 0 given
1,2,3 | 1,2,10,20,30
4
array => ArrayObject
float => null
null => string

Warning: {closure%S}(): Argument #1 ($v) must be passed by reference, value given in %s on line %d

Warning: {closure%S}(): Argument #1 ($v) must be passed by reference, value given in %s on line %d
1,2
