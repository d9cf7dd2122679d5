--TEST--
iterate(): a false return stops the iteration (the callbacks already running finish); an exception stops it, cancels the callbacks still running and propagates; a throwing source too
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/gates.inc';
use function Async\{iterate, delay, spawn};

// false (only false) stops: no new element is taken; with concurrency 1 nothing runs after it.
$calls = [];
iterate([1, 2, 3, 4, 5], function ($v) use (&$calls) { $calls[] = $v; return $v == 2 ? false : ($v == 1 ? 0 : null); }, 1);
echo implode(",", $calls), "\n";

// With concurrency 2 the other running callback still finishes.
$log = [];
$state = [];
iterate([1, 2, 3, 4, 5, 6], function ($v) use (&$log, &$state) {
    $state[$v] = true;
    // 1 ends once 2 is running; 2 once 1 has stopped the iteration
    while (!isset($state[$v == 1 ? 2 : 1]) || ($v == 2 && $state[1] !== 'ended')) { Async\suspend(); }
    $log[] = "end $v";
    $state[$v] = 'ended';
    return $v == 1 ? false : true;
}, 2);
echo implode(", ", $log), "\n";

// An exception stops the iteration: no element is pulled after it, the callbacks still running
// are cancelled (not waited for), then it propagates. (Before issue #39 they completed.)
$gates = new Gates();
$log = [];
try {
    iterate([1, 2, 3, 4, 5], function ($v) use (&$log, $gates) {
        if ($v == 2) { throw new RuntimeException("failed at $v"); }
        try {
            $gates->wait((string) $v); // never opened
            $log[] = "done $v";
        } catch (Async\AsyncCancellation $e) {
            $log[] = "cancelled $v";
        }
    }, 3);
} catch (RuntimeException $e) {
    sort($log);
    echo "caught: ", $e->getMessage(), "; ", implode(", ", $log), "\n";
}

// Two failures: the first one is thrown (the others fail on their cancellation).
spawn(fn() => $gates->release("b"));
try {
    iterate(["a", "b", "c"], function ($name) use ($gates) {
        try { $gates->wait($name); } finally { throw new LogicException("failure $name"); }
    });
} catch (LogicException $e) { echo "first failure: ", $e->getMessage(), "\n"; }

// A generator that throws: the elements before it were processed, then its exception propagates.
function gen() {
    yield "a" => 1;
    delay(1);          // a generator may suspend the caller
    yield "b" => 2;
    throw new DomainException("source failed");
}
$got = [];
try {
    iterate(gen(), function ($v, $k) use (&$got) { $got[] = "$k:$v"; });
} catch (DomainException $e) {
    echo "source: ", $e->getMessage(), " after ", implode(" ", $got), "\n";
}

// An IteratorAggregate whose getIterator() throws.
$agg = new class implements IteratorAggregate { function getIterator(): Iterator { throw new Exception("no iterator"); } };
try { iterate($agg, fn() => 1); } catch (Exception $e) { echo $e->getMessage(), "\n"; }

// An exit-free fatal path is not needed: a cancellation thrown by the callback propagates too.
try {
    iterate([1], function () { throw new Async\AsyncCancellation("cancelled inside"); });
} catch (Async\AsyncCancellation $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
?>
--EXPECT--
1,2
end 1, end 2
caught: failed at 2; cancelled 1
first failure: failure b
source: source failed after a:1 b:2
no iterator
Async\AsyncCancellation: cancelled inside
