--TEST--
A finished coroutine that holds nothing collectable is kept out of the cycle collector's buffer, and cycles made through it afterwards (its context holding it, a result or an error holding it) are still collected
--FILE--
<?php
use function Async\{spawn, await, current_coroutine};

// 1. Plain: finished, awaited, handle dropped: freed at once (no cycle, no GC run needed).
$c = spawn(fn() => 1);
$w = WeakReference::create($c);
var_dump(await($c));
unset($c);
var_dump($w->get() === null);

// 2. A context made after the finish that holds the coroutine: a cycle the GC must collect.
$c = spawn(fn() => 2);
var_dump(await($c));
$c->getContext()->set('self', $c);
$w = WeakReference::create($c);
unset($c);
var_dump($w->get() !== null);          // kept by the cycle
var_dump(gc_collect_cycles() > 0);
var_dump($w->get() === null);          // collected

// 3. A result that holds the coroutine (collectable: never marked).
$c = spawn(function () { return ['me' => current_coroutine()]; });
$r = await($c);
var_dump($r['me'] === $c);
$w = WeakReference::create($c);
unset($c, $r);
var_dump($w->get() !== null);
var_dump(gc_collect_cycles() > 0);
var_dump($w->get() === null);

// 4. An error whose trace argument holds the coroutine.
function fail(Async\Coroutine $co) { throw new RuntimeException('x'); }
$c = spawn(function () { fail(current_coroutine()); });
try { await($c); } catch (RuntimeException $e) { echo "caught\n"; }
unset($e);
$w = WeakReference::create($c);
unset($c);
gc_collect_cycles();
var_dump($w->get() === null);

// 5. Many finished and awaited: none is left behind.
$ws = [];
for ($i = 0; $i < 100; $i++) {
    $c = spawn(fn() => $i);
    await($c);
    $ws[] = WeakReference::create($c);
}
unset($c);
var_dump(count(array_filter($ws, fn($w) => $w->get() !== null)));
?>
--EXPECT--
int(1)
bool(true)
int(2)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
caught
bool(true)
int(0)
