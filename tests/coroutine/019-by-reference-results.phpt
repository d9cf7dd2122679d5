--TEST--
A by-reference closure's result reaches await() and protect() as a plain value
--FILE--
<?php
use function Async\{spawn, await, protect};
$store = ['k' => 'v'];
$byRef = function &() use (&$store) { return $store['k']; };
$c = spawn($byRef);
$r = await($c);
$r .= '-changed';
var_dump($store['k'], $r, $c->getResult());
$p = protect($byRef);
$p .= '-changed';
var_dump($store['k'], $p);
?>
--EXPECT--
string(1) "v"
string(9) "v-changed"
string(1) "v"
string(1) "v"
string(9) "v-changed"
