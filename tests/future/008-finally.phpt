--TEST--
Future::finally(): runs on success and on error with no argument, passes the outcome through; a throw rejects the child; the parent's error, carried on in the child, is handled when the child's is (issue #39 item 7: tests/future/030)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await};

$ok = Future::completed("value")->finally(function (...$args) { echo "finally on success, args: ", count($args), "\n"; return "ignored"; });
var_dump(await($ok));

// finally() observes an error and carries it on in its child: the child awaited, the parent's
// error is handled too, and the parent does not warn when it dies.
$ex = new RuntimeException("kept");
$failed = Future::failed($ex)->finally(function (...$args) { echo "finally on error, args: ", count($args), "\n"; });
try { await($failed); } catch (RuntimeException $e) { var_dump($e === $ex); }

// Throwing in finally: the child rejects with it; an original error becomes its previous.
try {
    await(Future::completed(1)->finally(fn() => throw new LogicException("from finally")));
} catch (LogicException $e) { echo $e->getMessage(), ", previous: ", var_export($e->getPrevious(), true), "\n"; }
try {
    await(Future::failed(new RuntimeException("original"))->finally(fn() => throw new LogicException("from finally")));
} catch (LogicException $e) { echo $e->getMessage(), ", previous: ", get_class($e->getPrevious()), ": ", $e->getPrevious()->getMessage(), "\n"; }

// On a pending future, and for a cancelled one.
$s = new FutureState();
$f = new Future($s);
$fin = $f->finally(function () { echo "finally after cancel\n"; });
$f->cancel();
try { await($fin); } catch (Async\AsyncCancellation $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
?>
--EXPECTF--
finally on success, args: 0
string(5) "value"
finally on error, args: 0
bool(true)
from finally, previous: NULL
from finally, previous: RuntimeException: original
finally after cancel
Async\AsyncCancellation: Future has been cancelled
