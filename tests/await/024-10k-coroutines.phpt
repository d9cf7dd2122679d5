--TEST--
await_*: 10,000 coroutines in one wait (array and generator), every result accounted for in both key orders
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
memory_limit=512M
--FILE--
<?php
use function Async\{await_all, await_all_or_fail, await_any_of, await_any_or_fail, spawn, delay, get_coroutines};

$n = 10000;
$make = function () use ($n) {
    $list = [];
    for ($i = 0; $i < $n; $i++) {
        // Every third one suspends, every 1000th fails.
        $list["k$i"] = spawn(function () use ($i) {
            if ($i % 3 === 0) delay(1);
            if ($i % 1000 === 999) throw new RuntimeException("failed $i");
            return $i;
        });
    }
    return $list;
};

[$results, $errors] = await_all($make());
echo count($results), " results, ", count($errors), " errors, sum ", array_sum($results), "\n";
$expected = [];
for ($i = 0; $i < $n; $i++) if ($i % 1000 !== 999) $expected[] = "k$i";
echo "input order kept: ", var_export(array_keys($results) === $expected, true), ", errors: ", implode(',', array_keys($errors)), "\n";

[$results, $errors] = await_all($make(), null, false, true);
$keys = array_keys($results);
echo count($results), " entries with fillNull, first completed: $keys[0], last completed: ", end($keys), "\n";

// From a generator.
$gen = (function () use ($n) { for ($i = 0; $i < $n; $i++) yield $i => spawn(fn() => $i * 2); })();
$r = await_all_or_fail($gen);
echo count($r), " from a generator, sum ", array_sum($r), ", keys in order: ", var_export(array_keys($r) === range(0, $n - 1), true), "\n";

// The first 100 of 10,000, then the first one.
[$r] = await_any_of(100, $make());
echo count($r), " of any_of(100)\n";
$list = $make();
var_dump(await_any_or_fail($list));
await_all($list);
echo "live coroutines left: ", count(get_coroutines()) - 1, "\n";
?>
--EXPECT--
9990 results, 10 errors, sum 49940010
input order kept: true, errors: k999,k1999,k2999,k3999,k4999,k5999,k6999,k7999,k8999,k9999
10000 entries with fillNull, first completed: k1, last completed: k9999
10000 from a generator, sum 99990000, keys in order: true
100 of any_of(100)
int(1)
live coroutines left: 0
