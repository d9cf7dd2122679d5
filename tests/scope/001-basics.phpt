--TEST--
Scope: spawn, isFinished/isClosed/isCancelled, cancel, closed-scope spawn message
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay};

$s = new Scope();
var_dump($s->isFinished(), $s->isClosed(), $s->isCancelled());
$c1 = $s->spawn(function () { delay(5); return 1; });
$c2 = $s->spawn(function ($x) { delay(5000); return $x; }, 2);
var_dump($s->isFinished());
var_dump(await($c1));
$s->cancel();
var_dump($s->isCancelled(), $s->isClosed()); // closed only by disposal: $c2 is still there
try { await($c2); } catch (Async\AsyncCancellation $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $s->spawn(fn() => 1); } catch (Async\AsyncException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
var_dump($s->isFinished());
// A custom cancellation is delivered as is.
$s2 = new Scope();
$c3 = $s2->spawn(fn() => delay(5000));
delay(1);
$s2->cancel(new Async\AsyncCancellation("mine"));
try { await($c3); } catch (Async\AsyncCancellation $e) { echo $e->getMessage(), "\n"; }
// Not an AsyncCancellation: TypeError from ZPP.
try { $s2->cancel(new Exception("x")); } catch (TypeError $e) { echo "TypeError\n"; }
// provideScope() returns the scope itself.
var_dump($s2->provideScope() === $s2);
// Not clonable, not serializable.
try { clone $s2; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { serialize($s2); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(false)
int(1)
bool(true)
bool(false)
Async\AsyncCancellation: Scope was cancelled
Async\AsyncException: Cannot spawn a coroutine in a closed scope
bool(true)
mine
TypeError
bool(true)
Trying to clone an uncloneable object of class Async\Scope
Serialization of 'Async\Scope' is not allowed
