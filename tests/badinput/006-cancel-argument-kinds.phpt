--TEST--
cancel(): subclasses, constructor-less and shared AsyncCancellation objects, explicit null, repeated and late cancels
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, current_coroutine};
use Async\AsyncCancellation;

function outcome(Async\Coroutine $c): string {
    try {
        return "result " . var_export(await($c), true);
    } catch (Throwable $e) {
        return get_class($e) . ": " . $e->getMessage();
    }
}
function sleeper(): Async\Coroutine {
    $c = spawn(fn() => delay(100000));
    suspend();
    return $c;
}

class MyCancel extends AsyncCancellation {}
class NoCtorCancel extends AsyncCancellation { public function __construct() {} }
final class FinalCancel extends Async\OperationCanceledException {}

$c = sleeper(); $c->cancel(new MyCancel("mine"));
echo "subclass: ", outcome($c), "\n";
$c = sleeper(); $c->cancel(new NoCtorCancel());
echo "ctor not called: ", outcome($c), "\n";
$c = sleeper(); $c->cancel((new ReflectionClass(AsyncCancellation::class))->newInstanceWithoutConstructor());
echo "newInstanceWithoutConstructor: ", outcome($c), "\n";
$c = sleeper(); $c->cancel(new FinalCancel("op"));
echo "OperationCanceledException subclass: ", outcome($c), "\n";
$c = sleeper(); $c->cancel(null);
echo "explicit null: ", outcome($c), "\n";
$c = sleeper(); $c->cancel(cancellation: new AsyncCancellation("named"));
echo "named: ", outcome($c), "\n";

// One object cancels several coroutines (suspended, not started, finished).
$shared = new AsyncCancellation("shared");
$a = spawn(fn() => delay(100000));
$b = spawn(fn() => delay(100000));
$done = spawn(fn() => "done");
suspend();
$notStarted = spawn(fn() => "never");
foreach ([$a, $b, $done, $notStarted] as $x) {
    $x->cancel($shared);
}
foreach (['a' => $a, 'b' => $b, 'done' => $done, 'notStarted' => $notStarted] as $k => $x) {
    echo "shared $k: ", outcome($x), " same=", var_export($x->getException() === $shared, true), "\n";
}

// Repeated cancels before the coroutine ran again: the first one wins and later ones are ignored,
// as inside protect() (a later cancel() without argument must not replace the caller's reason).
$c = sleeper();
$c->cancel(new AsyncCancellation("first"));
$c->cancel(new AsyncCancellation("second"));
$c->cancel();
echo "repeated: ", outcome($c), "\n";

// Cancel after the cancellation was delivered and caught: the coroutine keeps running and the
// next cancel is delivered at the next suspension point.
$c = spawn(function () {
    try { delay(100000); } catch (AsyncCancellation $e) { echo "  caught ", $e->getMessage(), "\n"; }
    try { delay(100000); } catch (AsyncCancellation $e) { echo "  caught ", $e->getMessage(), "\n"; }
    return "survived";
});
suspend();
$c->cancel(new AsyncCancellation("one"));
suspend();
$c->cancel(new AsyncCancellation("two"));
$o = outcome($c);
echo "recancel: $o\n";

// A cancellation thrown by hand (not via cancel()) is just an exception of the coroutine.
$c = spawn(function () { throw new AsyncCancellation("thrown by hand"); });
echo "thrown: ", outcome($c), " isCancelled=", var_export($c->isCancelled(), true), "\n";

// cancel() on the awaiting side's own coroutine from inside a cancelled coroutine's catch block.
$c = spawn(function () {
    try {
        delay(100000);
    } catch (AsyncCancellation $e) {
        current_coroutine()->cancel(new AsyncCancellation("again from catch"));
        delay(1);
        return "not reached";
    }
});
suspend();
$c->cancel();
echo "self-cancel in catch: ", outcome($c), "\n";
?>
--EXPECT--
subclass: MyCancel: mine
ctor not called: NoCtorCancel: 
newInstanceWithoutConstructor: Async\AsyncCancellation: 
OperationCanceledException subclass: FinalCancel: op
explicit null: Async\AsyncCancellation: Coroutine cancelled
named: Async\AsyncCancellation: named
shared a: Async\AsyncCancellation: shared same=true
shared b: Async\AsyncCancellation: shared same=true
shared done: result 'done' same=false
shared notStarted: Async\AsyncCancellation: shared same=true
repeated: Async\AsyncCancellation: first
  caught one
  caught two
recancel: result 'survived'
thrown: Async\AsyncCancellation: thrown by hand isCancelled=true
self-cancel in catch: Async\AsyncCancellation: again from catch
