--TEST--
Future::cancel(): rejects a pending future with AsyncCancellation("Future has been cancelled"); no-op when done
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState, AsyncCancellation};
use function Async\{spawn, await, delay, suspend};

$s = new FutureState();
$f = new Future($s);
$waiter = spawn(function () use ($f) {
    try { $f->await(); } catch (AsyncCancellation $e) { return get_class($e) . ": " . $e->getMessage(); }
});
suspend();
$f->cancel();
var_dump(await($waiter), $f->isCancelled(), $f->isCompleted(), $s->isCompleted());
try { await($f); } catch (AsyncCancellation $e) { echo "replay: ", $e->getMessage(), "\n"; }

// The producer's late completion is swallowed: it did nothing wrong.
$s->complete("late");
$s->error(new Exception("late"));
echo "late completion ignored\n";
$f->cancel(); // twice: no-op
var_dump($f->isCancelled());

// A custom cancellation is delivered as is.
$s = new FutureState();
$f = new Future($s);
$mine = new AsyncCancellation("mine");
$f->cancel($mine);
try { $f->await(); } catch (AsyncCancellation $e) { var_dump($e === $mine); }
try { $f->cancel(new Exception("wrong")); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }

// Cancelling a finished future changes nothing.
$done = Future::completed(5);
$done->cancel();
var_dump($done->isCancelled(), await($done));
$err = Future::failed(new RuntimeException("err"));
$err->cancel();
var_dump($err->isCancelled());
try { await($err); } catch (RuntimeException $e) { echo "still: ", $e->getMessage(), "\n"; }

// isCancelled() means "rejected with a cancellation", whoever did it.
$s = new FutureState();
$s->error(new AsyncCancellation("by the writer"));
var_dump((new Future($s))->ignore()->isCancelled());

// Chains see the cancellation as an error.
$s = new FutureState();
$f = new Future($s);
$mapped = $f->map(fn() => "unreachable");
$caught = $f->catch(fn($e) => "caught " . $e->getMessage());
$f->cancel();
var_dump(await($caught));
try { await($mapped); } catch (AsyncCancellation $e) { echo "mapped: ", $e->getMessage(), "\n"; }
// Cancelling a child does not touch its parent.
$s = new FutureState();
$parent = new Future($s);
$child = $parent->map(fn($v) => $v);
$child->cancel();
$s->complete("parent fine");
var_dump(await($parent), $child->isCancelled());
?>
--EXPECT--
string(50) "Async\AsyncCancellation: Future has been cancelled"
bool(true)
bool(true)
bool(true)
replay: Future has been cancelled
late completion ignored
bool(true)
bool(true)
Async\Future::cancel(): Argument #1 ($cancellation) must be of type ?Async\AsyncCancellation, Exception given
bool(false)
int(5)
bool(false)
still: err
bool(true)
string(32) "caught Future has been cancelled"
mapped: Future has been cancelled
string(11) "parent fine"
bool(true)
