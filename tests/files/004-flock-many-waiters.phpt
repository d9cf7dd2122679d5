--TEST--
files: 16 coroutines waiting in flock() (more than libuv's 4 pool threads) neither deadlock nor starve DNS on the pool, file reads or a ticker
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, await_all, delay};

$path = tempnam(sys_get_temp_dir(), 'lock');
$holder = fopen($path, 'r');
flock($holder, LOCK_EX);
$order = [];
$waiters = [];
for ($i = 0; $i < 16; $i++) {
    $waiters[] = spawn(function () use ($path, $i, &$order) {
        $h = fopen($path, 'r');
        flock($h, $i % 2 ? LOCK_SH : LOCK_EX);
        $order[] = $i;
        flock($h, LOCK_UN);
        fclose($h);
    });
}
$others = spawn(function () use ($path) {
    delay(20); // the waiters are all waiting by now
    $ip = gethostbyname('localhost'); // a thread-pool job
    $read = file_get_contents(__FILE__);
    return [$ip !== '', strlen($read) > 0];
});
var_dump(await($others));
var_dump(count($order)); // nobody got the lock yet
flock($holder, LOCK_UN);
await_all($waiters);
echo implode(',', $order), "\n"; // in arrival order
unlink($path);
?>
--EXPECT--
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
int(0)
0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
