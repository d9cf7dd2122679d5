--TEST--
Scope: finally handler errors are not lost: dispose() throws them (several as a CompositeException); after an asynchronous disposal they are unhandled
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{delay};
$s = new Scope();
$s->finally(function () { throw new Exception("f1"); });
$s->finally(function () { echo "second still runs\n"; });
$s->finally(function () { throw new Exception("f2"); });
try { $s->dispose(); } catch (Async\CompositeException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
    foreach ($e->getExceptions() as $x) { echo " - ", $x->getMessage(), "\n"; }
}
$one = new Scope();
$one->finally(function () { throw new LogicException("only one"); });
try { $one->dispose(); } catch (LogicException $e) { echo "single: ", $e->getMessage(), "\n"; }

// Disposed when its last coroutine ends: nobody to throw to, so it is an unhandled error.
$a = new Scope();
$a->finally(function () { throw new RuntimeException("async finally"); });
$a->spawn(fn() => delay(1));
$a->disposeSafely();
delay(20);
echo "not reached\n";
?>
--EXPECTF--
second still runs
Async\CompositeException: Multiple exceptions in Scope finally handlers
 - f1
 - f2
single: only one

Fatal error: Uncaught RuntimeException: async finally in %s:%d
Stack trace:
#0 %a
  thrown in %s on line %d
