--TEST--
await_*: empty iterables (array, Iterator, generator) and null elements, which are skipped
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Future;
use function Async\{await_any_or_fail, await_first_success, await_all_or_fail, await_all, await_any_of_or_fail, await_any_of, spawn};

function nothing() { return; yield; }
function only_nulls() { yield 'a' => null; yield 'b' => null; }

$empties = [
    'array' => fn() => [],
    'ArrayIterator' => fn() => new ArrayIterator([]),
    'generator' => fn() => nothing(),
    'nulls only' => fn() => [null, null, 'k' => null],
    'generator of nulls' => fn() => only_nulls(),
];
foreach ($empties as $label => $make) {
    echo "$label: ", json_encode([
        await_any_or_fail($make()),
        await_first_success($make()),
        await_all_or_fail($make()),
        await_all($make()),
        await_any_of_or_fail(2, $make()),
        await_any_of(2, $make()),
    ]), "\n";
}

// Nulls among real triggers are skipped: they take no key in the results.
$c = spawn(fn() => 'C');
[$results, $errors] = await_all(['n1' => null, 'c' => $c, 'n2' => null, 'f' => Future::completed('F')], null, true, true);
var_dump($results, $errors);
var_dump(await_any_or_fail([null, null, Future::completed('after nulls')]));
var_dump(await_all_or_fail([5 => null, 6 => $c]));
?>
--EXPECT--
array: [null,[null,[]],[],[[],[]],[],[[],[]]]
ArrayIterator: [null,[null,[]],[],[[],[]],[],[[],[]]]
generator: [null,[null,[]],[],[[],[]],[],[[],[]]]
nulls only: [null,[null,[]],[],[[],[]],[],[[],[]]]
generator of nulls: [null,[null,[]],[],[[],[]],[],[[],[]]]
array(2) {
  ["c"]=>
  string(1) "C"
  ["f"]=>
  string(1) "F"
}
array(0) {
}
string(11) "after nulls"
array(1) {
  [6]=>
  string(1) "C"
}
