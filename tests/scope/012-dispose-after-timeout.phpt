--TEST--
Scope: disposeAfterTimeout — cancels from a timer, ValueError for negative, no-op on empty or closed
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay};

$s = new Scope();
$c = $s->spawn(function () { delay(5000); });
$s->disposeAfterTimeout(10);
try { await($c); } catch (Async\AsyncCancellation $e) { echo $e->getMessage(), "\n"; }
var_dump($s->isClosed(), $s->isCancelled());

try { (new Scope())->disposeAfterTimeout(-1); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }

// Empty: no-op (the scope stays open).
$e = new Scope();
$e->disposeAfterTimeout(1);
delay(5);
var_dump($e->isClosed());

// Finishing before the timer: nothing is cancelled later, and the timer does not hold the loop.
$q = new Scope();
$qc = $q->spawn(function () { delay(1); return "done in time"; });
$q->disposeAfterTimeout(60000);
var_dump(await($qc));
$q->dispose();
$t0 = hrtime(true);
echo "end\n";
?>
--EXPECTF--
Scope has been disposed due to timeout
bool(true)
bool(true)
Async\Scope::disposeAfterTimeout(): Argument #1 ($timeout) must be greater than or equal to 0
bool(false)
string(12) "done in time"
end
