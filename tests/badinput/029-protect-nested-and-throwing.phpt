--TEST--
protect(): throwing while a cancel is deferred, self-cancel inside, deep nesting, odd closures, protect in main/handlers, cancellation thrown by hand
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, protect, current_coroutine};
use Async\AsyncCancellation;

function show(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: ", is_object($r) ? get_class($r) : var_export($r, true), "\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage();
        for ($p = $e->getPrevious(); $p; $p = $p->getPrevious()) {
            echo " <- ", get_class($p), ": ", $p->getMessage();
        }
        echo "\n";
    }
}

// The closure throws while a cancel is deferred: the cancellation wins, the error is kept as previous.
$c = spawn(fn() => protect(function () { delay(5); throw new LogicException("body threw"); }));
suspend();
$c->cancel(new AsyncCancellation("deferred"));
show("throw while deferred", fn() => await($c));

// Inner protect throws, outer catches: no cancel involved.
show("inner throws, outer catches", fn() => await(spawn(fn() => protect(function () {
    try { protect(function () { throw new DomainException("inner"); }); } catch (DomainException $e) { return "outer caught " . $e->getMessage(); }
}))));

// Inner protect throws while a cancel is deferred; the outer protect catches the error and returns.
$c = spawn(fn() => protect(function () {
    try { protect(function () { delay(5); throw new DomainException("inner"); }); } catch (Throwable $e) { return "outer caught " . get_class($e); }
}));
suspend();
$c->cancel(new AsyncCancellation("deferred twice"));
show("inner throws under a deferred cancel", fn() => await($c));

// Self-cancel inside protect is deferred too.
show("self-cancel inside protect", fn() => await(spawn(fn() => protect(function () {
    current_coroutine()->cancel(new AsyncCancellation("self, deferred"));
    delay(1);
    echo "  still protected after the wait\n";
    return "value lost";
}))));

// Several cancels while protected: the first one is delivered.
$c = spawn(fn() => protect(fn() => delay(5) ?? "x"));
suspend();
$c->cancel(new AsyncCancellation("first"));
$c->cancel(new AsyncCancellation("second"));
show("two cancels", fn() => await($c));

// 200 nested levels, cancelled in the middle.
$nest = function (int $n) use (&$nest) { return $n === 0 ? (delay(5) ?? "deep") : protect(fn() => $nest($n - 1)); };
$c = spawn(fn() => $nest(200));
suspend();
$c->cancel();
show("deep nesting", fn() => await($c));
show("deep nesting, no cancel", fn() => await(spawn(fn() => $nest(200))));

// Odd closures.
show("generator closure", fn() => protect(function () { yield 1; }));
show("first-class callable", fn() => protect(strtoupper(...)));
show("closure needing an argument", fn() => protect(fn($x) => $x));
show("static closure", fn() => protect(static fn() => "static"));
show("closure from callable", fn() => protect(Closure::fromCallable('phpversion')) !== "");
show("by-reference return", fn() => protect(function &() { static $v = "ref"; return $v; }));

// protect() in main, in a finally handler of a cancelled coroutine (it runs right after the
// cancellation, before main's await() resumes), and a cancellation thrown by hand.
show("in main", fn() => protect(fn() => delay(1) ?? "main protected"));
$c = spawn(fn() => delay(100000));
$c->finally(function () { echo "  handler: ", protect(fn() => delay(1) ?? "protected in handler"), "\n"; });
suspend();
$c->cancel();
show("handler of a cancelled coroutine", fn() => await($c));
show("cancellation thrown by hand", fn() => await(spawn(fn() => protect(function () { throw new AsyncCancellation("manual"); }))));
?>
--EXPECTF--
throw while deferred: Async\AsyncCancellation: deferred <- LogicException: body threw
inner throws, outer catches: 'outer caught inner'
inner throws under a deferred cancel: Async\AsyncCancellation: deferred twice
  still protected after the wait
self-cancel inside protect: Async\AsyncCancellation: self, deferred
two cancels: Async\AsyncCancellation: first
deep nesting: Async\AsyncCancellation: Coroutine cancelled
deep nesting, no cancel: 'deep'
generator closure: Generator
first-class callable: ArgumentCountError: strtoupper() expects exactly 1 argument, 0 given
closure needing an argument: ArgumentCountError: Too few arguments to function {closure%S}(), 0 passed and exactly 1 expected
static closure: 'static'
closure from callable: true
by-reference return: 'ref'
in main: 'main protected'
  handler: handler of a cancelled coroutine: Async\AsyncCancellation: Coroutine cancelled
cancellation thrown by hand: Async\AsyncCancellation: manual
protected in handler
