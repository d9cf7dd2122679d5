--TEST--
Future: a child cancelled while its callable runs stays cancelled; a child cancelled before its parent settles never runs its callable
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState, AsyncCancellation};
use function Async\{spawn, await, delay};

$child = Future::completed(1)->map(function ($v) { echo "callable started\n"; delay(20); echo "callable finished\n"; return $v + 1; });
delay(5);
$child->cancel();
try { await($child); } catch (AsyncCancellation $e) { echo "child: ", $e->getMessage(), "\n"; }
delay(30); // the callable ends; its late result is dropped
var_dump($child->isCancelled());
try { await($child); } catch (AsyncCancellation $e) { echo "still: ", $e->getMessage(), "\n"; }

$s = new FutureState();
$f = new Future($s);
$early = $f->map(function () { echo "never runs\n"; });
$passing = $f->catch(function () { echo "never runs either\n"; });
$early->cancel();
$passing->cancel();
$s->complete("parent");
var_dump(await($f), $early->isCancelled(), $passing->isCancelled());
delay(1);
echo "end\n";
?>
--EXPECT--
callable started
child: Future has been cancelled
callable finished
bool(true)
still: Future has been cancelled
string(6) "parent"
bool(true)
bool(true)
end
