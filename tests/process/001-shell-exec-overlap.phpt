--TEST--
shell_exec('sleep 0.3') in two coroutines: the commands overlap (about one delay, not two) while a ticker keeps ticking; the backtick operator too
--INI--
async.debug_deadlock=0
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, await_all, delay};

$delay = 300;
$t0 = hrtime(true);
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(10);
        $ticks++;
    }
});
$order = [];
/* the backtick operator is deprecated from 8.5, at compile time (hence E_DEPRECATED off in --INI--);
 * it runs shell_exec() all the same, and is checked here on purpose */
$tasks = [
    'a' => spawn(function () use (&$order) { $order[] = 'a in'; $r = shell_exec('sleep 0.3; echo a'); $order[] = 'a out'; return $r; }),
    'b' => spawn(function () use (&$order) { $order[] = 'b in'; $r = `sleep 0.3; echo b`; $order[] = 'b out'; return $r; }),
];
[$results, $errors] = await_all($tasks);
$elapsed = ms_since($t0);
$done = true;
await($ticker);

var_dump($results, $errors);
/* both started before either finished (which one finishes first is the kernel's call) */
$finished = array_slice($order, 2);
sort($finished);
echo implode(', ', array_slice($order, 0, 2)), ' / ', implode(', ', $finished), "\n";
$limit = 2 * $delay * slow_factor();
echo $elapsed >= $delay - 1 ? "waited the delay\n" : "too fast: $elapsed ms\n";
echo $elapsed < $limit ? "overlapped\n" : "serial: $elapsed ms (limit $limit)\n";
echo $ticks >= 10 ? "ticker ran\n" : "ticker starved: $ticks ticks\n";
?>
--EXPECT--
array(2) {
  ["a"]=>
  string(2) "a
"
  ["b"]=>
  string(2) "b
"
}
array(0) {
}
a in, b in / a out, b out
waited the delay
overlapped
ticker ran
