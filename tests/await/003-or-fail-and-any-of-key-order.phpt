--TEST--
await_all_or_fail, await_any_of_or_fail and await_any_of: input or completion key order
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use function Async\{await_all, await_all_or_fail, await_any_of_or_fail, await_any_of};

$values = ['a' => 'A', 10 => 'ten', 'c' => 'C', 'd' => 'D'];
$order = ['d', 10, 'a', 'c'];

echo "all_or_fail:   ", json_encode(await_all_or_fail(ordered_coroutines($values, $order))), "\n";
echo "all_or_fail/c: ", json_encode(await_all_or_fail(ordered_coroutines($values, $order), null, false)), "\n";

// any_of*: the first 3 to complete (d, 10, a), then shown in input or completion order.
$t = ordered_coroutines($values, $order);
echo "any_of_or_fail:   ", json_encode(await_any_of_or_fail(3, $t)), "\n";
await_all($t);
$t = ordered_coroutines($values, $order);
echo "any_of_or_fail/c: ", json_encode(await_any_of_or_fail(3, $t, null, false)), "\n";
await_all($t);

$values['b'] = new RuntimeException('b failed');
$order = ['d', 'b', 10, 'a', 'c'];
$t = ordered_coroutines($values, $order);
[$r, $e] = await_any_of(3, $t);
echo "any_of:   ", json_encode($r), " errors ", json_encode(array_keys($e)), "\n";
await_all($t);
$t = ordered_coroutines($values, $order);
[$r, $e] = await_any_of(3, $t, null, false, true);
echo "any_of/c+fillNull: ", json_encode($r), " errors ", json_encode(array_keys($e)), "\n";
await_all($t);
?>
--EXPECT--
all_or_fail:   {"a":"A","10":"ten","c":"C","d":"D"}
all_or_fail/c: {"d":"D","10":"ten","a":"A","c":"C"}
any_of_or_fail:   {"a":"A","10":"ten","d":"D"}
any_of_or_fail/c: {"d":"D","10":"ten","a":"A"}
any_of:   {"a":"A","10":"ten","d":"D"} errors ["b"]
any_of/c+fillNull: {"d":"D","b":null,"10":"ten","a":"A"} errors ["b"]
