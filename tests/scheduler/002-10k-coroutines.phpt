--TEST--
10,000 coroutines each doing delay(1); results and side effects are all accounted for
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
memory_limit=512M
--FILE--
<?php
use function Async\{spawn, await, delay, get_coroutines};

$n = 10000;
$sum = 0;
$finished = 0;
$coroutines = [];
for ($i = 1; $i <= $n; $i++) {
    $coroutines[] = spawn(function (int $i) use (&$sum, &$finished) {
        delay(1);
        $sum += $i;
        $finished++;
        return $i * 2;
    }, $i);
}
var_dump(count(get_coroutines()));
$total = 0;
foreach ($coroutines as $c) {
    $total += await($c);
}
var_dump($sum, $finished, $total);
var_dump(count(get_coroutines()));
// Every coroutine is completed, none cancelled.
$bad = 0;
foreach ($coroutines as $c) {
    if (!$c->isCompleted() || $c->isCancelled() || $c->getException() !== null) { $bad++; }
}
var_dump($bad);

// A second wave reuses the pooled contexts and still works.
$coroutines = [];
for ($i = 1; $i <= $n; $i++) {
    $coroutines[] = spawn(fn() => delay(1) ?? 1);
}
$count = 0;
foreach ($coroutines as $c) { $count += await($c); }
var_dump($count);
?>
--EXPECT--
int(10001)
int(50005000)
int(10000)
int(100010000)
int(1)
int(0)
int(10000)
