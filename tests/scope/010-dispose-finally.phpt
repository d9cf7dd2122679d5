--TEST--
Scope: dispose() returns before the finally handlers run (after disposal, in a helper coroutine, FIFO, immediate when already disposed), disposal when the object goes
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay, suspend};

$s = new Scope();
$c = $s->spawn(function () { delay(5000); });
$s->finally(function (Scope $scope) use ($s) { echo "finally 1, same: ", var_export($scope === $s, true), "\n"; });
$s->finally(function () { echo "finally 2\n"; });
delay(1);
echo "dispose\n";
$s->dispose();
echo "dispose returned\n";
try { await($c); } catch (Async\AsyncCancellation $e) { echo "cancelled: ", $e->getMessage(), "\n"; }
suspend(); /* the scope was disposed with its last coroutine; the handlers' helper runs now */
var_dump($s->isClosed(), $s->isFinished());
$s->finally(function () { echo "finally after disposal runs at once\n"; });

// An empty scope disposes at once.
$e = new Scope();
$e->finally(function () { echo "empty disposed\n"; });
$e->dispose();
echo "after empty dispose\n";
suspend();

// Dropping the last reference to an empty scope disposes it too.
$f = new Scope();
$f->finally(function () { echo "dropped\n"; });
unset($f);
echo "after unset\n";
suspend();

// Object destruction with running coroutines cancels them, then disposes.
$o = new Scope();
$oc = $o->spawn(function () { delay(5000); });
$o->finally(function () { echo "destroyed scope disposed\n"; });
unset($o);
echo "after unset with a coroutine\n";
try { await($oc); } catch (Async\AsyncCancellation $e) { echo $e->getMessage(), "\n"; }
suspend();
echo "end\n";
?>
--EXPECT--
dispose
dispose returned
cancelled: Scope was cancelled
finally 1, same: true
finally 2
bool(true)
bool(true)
finally after disposal runs at once
after empty dispose
empty disposed
after unset
dropped
after unset with a coroutine
Scope is being disposed due to object destruction
destroyed scope disposed
end
