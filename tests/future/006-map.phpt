--TEST--
Future::map(): transforms a value, is skipped on error (same exception passes through), a throw rejects the child
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, delay};

// On a pending future, then completed.
$s = new FutureState();
$f = new Future($s);
$doubled = $f->map(fn($v) => $v * 2);
$chained = $doubled->map(fn($v) => "[$v]")->map('strrev');
spawn(fn() => $s->complete(21));
var_dump(await($chained), $doubled->await());

// Each map() call is an independent child of the same parent.
$base = Future::completed(10);
$a = $base->map(fn($v) => $v + 1);
$b = $base->map(fn($v) => $v + 2);
var_dump($a !== $b, await($a), await($b), await($base));

// Skipped on error: the child is rejected with the very same exception, the callable never runs.
$ex = new RuntimeException("no value");
$child = Future::failed($ex)->map(function ($v) { echo "never called\n"; return $v; });
try { await($child); } catch (RuntimeException $e) { var_dump($e === $ex); }

// A throwing callable rejects the child (and only the child).
$parent = Future::completed(1);
$bad = $parent->map(function ($v) { throw new LogicException("map failed on $v"); });
try { $bad->await(); } catch (LogicException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
var_dump(await($parent));
// ... and the rejection flows on through later links.
try { await($bad->map(fn($v) => "unreachable")->map(fn($v) => "unreachable")); } catch (LogicException $e) { echo "downstream: ", $e->getMessage(), "\n"; }

// Returning a Future is a value like any other (no flattening).
$inner = Future::completed("inner")->ignore();
var_dump(await(Future::completed(0)->map(fn() => $inner)) === $inner);

// Callables of every kind.
class M { public function triple($v) { return $v * 3; } public static function neg($v) { return -$v; }
          private function secret($v) { return "secret $v"; }
          public function viaPrivate(Future $f) { return $f->map([$this, 'secret']); } }
var_dump(await(Future::completed(2)->map([new M, 'triple'])), await(Future::completed(2)->map('M::neg')),
    await((new M)->viaPrivate(Future::completed(7))));
try { Future::completed(1)->ignore()->map('no_such_function'); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
string(4) "]24["
int(42)
bool(true)
int(11)
int(12)
int(10)
bool(true)
LogicException: map failed on 1
int(1)
downstream: map failed on 1
bool(true)
int(6)
int(-2)
string(8) "secret 7"
Async\Future::map(): Argument #1 ($map) must be a valid callback, function "no_such_function" not found or invalid function name
