--TEST--
Scope: dispose(), finally handlers (FIFO, immediate when disposed, errors collected), disposal when the object goes
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
$s->finally(function (Scope $scope) use ($s) { echo "finally 1, same: ", var_export($scope === $s, true), "\n"; });
$s->finally(function () { echo "finally 2\n"; });
delay(1);
echo "dispose\n";
$s->dispose();
try { await($c); } catch (Async\AsyncCancellation $e) { echo "cancelled: ", $e->getMessage(), "\n"; }
var_dump($s->isClosed(), $s->isFinished());
$s->finally(function () { echo "finally after disposal runs at once\n"; });

// An empty scope disposes at once.
$e = new Scope();
$e->finally(function () { echo "empty disposed\n"; });
$e->dispose();
echo "after empty dispose\n";

// Dropping the last reference to an empty scope disposes it too.
$f = new Scope();
$f->finally(function () { echo "dropped\n"; });
unset($f);
echo "after unset\n";

// Object destruction with running coroutines cancels them, then disposes.
$o = new Scope();
$oc = $o->spawn(function () { delay(5000); });
$o->finally(function () { echo "destroyed scope disposed\n"; });
unset($o);
try { await($oc); } catch (Async\AsyncCancellation $e) { echo $e->getMessage(), "\n"; }
echo "end\n";
?>
--EXPECT--
dispose
finally 1, same: true
finally 2
cancelled: Scope was cancelled
bool(true)
bool(true)
finally after disposal runs at once
empty disposed
after empty dispose
dropped
after unset
destroyed scope disposed
Scope is being disposed due to object destruction
end
