--TEST--
100,000 coroutines suspended at once (beyond the ~28,000 two memory maps per stack allowed under vm.max_map_count), all woken and finished
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip 100k coroutines under valgrind/ASan take too long');
?>
--INI--
memory_limit=2G
--FILE--
<?php
use Async\FutureState;
use function Async\{spawn, await, suspend};

$n = 100000;
$state = new FutureState();
$gate = new Async\Future($state);
$started = 0;
$cs = [];
for ($i = 0; $i < $n; $i++) {
    $cs[] = spawn(function () use ($gate, &$started, $i) {
        $started++;
        return await($gate) + $i;
    });
}
while ($started < $n) {
    suspend();
}
$suspended = 0;
foreach ($cs as $c) {
    $suspended += $c->isSuspended() ? 1 : 0;
}
echo "suspended at once: $suspended\n";
/* guard pages of their own for a quarter of vm.max_map_count stacks, the rest share their chunk's */
$maps = count(file('/proc/self/maps'));
$limit = (int) file_get_contents('/proc/sys/vm/max_map_count');
echo "memory maps well within vm.max_map_count: ", var_export($maps < $limit * 0.6, true), "\n";
$state->complete(1);
$sum = 0;
foreach ($cs as $c) {
    $sum += await($c);
}
var_dump($sum === $n + ($n - 1) * $n / 2);
echo count(Async\get_coroutines()), " left\n";
?>
--EXPECT--
suspended at once: 100000
memory maps well within vm.max_map_count: true
bool(true)
1 left
