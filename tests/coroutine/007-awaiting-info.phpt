--TEST--
getAwaitingInfo() describes what a suspended coroutine waits for
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay};

function sleeper() { delay(50); }
function waiter($c) { return await($c); }

$s = spawn('sleeper');
var_dump($s->getAwaitingInfo());
suspend();
var_dump($s->getAwaitingInfo());
$w = spawn('waiter', $s);
suspend();
var_dump($w->getAwaitingInfo());
await($w);
var_dump($s->getAwaitingInfo(), $w->getAwaitingInfo());
?>
--EXPECTF--
array(0) {
}
array(1) {
  [0]=>
  string(12) "Timer(50 ms)"
}
array(1) {
  [0]=>
  string(%d) "Coroutine %d spawned at %s007-awaiting-info.php:7, suspended at %s007-awaiting-info.php:4 (sleeper)"
}
array(0) {
}
array(0) {
}
