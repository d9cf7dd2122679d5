--TEST--
iterate(): callback($value, $key) for every element in coroutines, the caller blocks until done; concurrency limit observed; unlimited by default
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{iterate, delay, current_coroutine};

delay(0); // launches the scheduler: the script becomes the main coroutine
$main = current_coroutine();
$seen = [];
$r = iterate(["a" => 1, "b" => 2, 5 => 3], function ($value, $key) use (&$seen, $main) {
    $seen[] = "$key=$value" . (current_coroutine() === $main ? " (in main!)" : "");
});
var_dump($r);
echo implode(" ", $seen), "\n";

// Each callback stays suspended until as many run at once as the limit allows (or all that are
// left have started): workers are added while the others are suspended, up to the limit.
foreach ([0, 1, 3, 7] as $limit) {
    $running = 0; $max = 0; $done = 0;
    iterate(range(1, 20), function ($v) use (&$running, &$max, &$done, $limit) {
        $running++;
        $max = max($max, $running);
        while ($running < ($limit ?: 20) && $done + $running < 20) {
            Async\suspend();
        }
        Async\suspend();
        $running--;
        $done++;
    }, $limit);
    echo "concurrency $limit: max $max, done $done, running after $running\n";
}

// Callback arguments are positional; extra parameters are not filled; a callable string works.
function show($v, $k) { echo "show($k, $v)\n"; }
iterate([10], 'show');
iterate(["x" => 1], function (...$args) { echo count($args), " arguments\n"; });

// The empty iterable calls nothing.
iterate([], function () { echo "never\n"; });
iterate(new ArrayIterator([]), function () { echo "never\n"; });
echo "end\n";
?>
--EXPECT--
NULL
a=1 b=2 5=3
concurrency 0: max 20, done 20, running after 0
concurrency 1: max 1, done 20, running after 0
concurrency 3: max 3, done 20, running after 0
concurrency 7: max 7, done 20, running after 0
show(0, 10)
2 arguments
end
