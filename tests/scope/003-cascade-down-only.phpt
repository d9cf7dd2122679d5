--TEST--
Scope: cancellation cascades downward only; parents and siblings are untouched
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay};

$parent = new Scope();
$a = Scope::inherit($parent);
$b = Scope::inherit($parent);
$pa = $parent->spawn(function () { delay(20); return "parent ok"; });
$ca = $a->spawn(function () { delay(5000); return "a"; });
$cb = $b->spawn(function () { delay(20); return "sibling ok"; });
delay(1);
$a->cancel();
var_dump(await($pa), await($cb));
try { await($ca); } catch (Async\AsyncCancellation $e) { echo $e->getMessage(), "\n"; }
var_dump($parent->isCancelled(), $b->isCancelled(), $a->isCancelled());
?>
--EXPECT--
string(9) "parent ok"
string(10) "sibling ok"
Scope was cancelled
bool(false)
bool(false)
bool(true)
