--TEST--
Future: cycles through a future's result, a chain's closure or its error are collected by the GC
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, delay};

class CyclicException extends Exception { public $node; }
class Node { public $ref; public function __construct(public string $name) {} public function __destruct() { echo "destroyed {$this->name}\n"; } }

// 1. The result holds the future: state -> result -> node -> future -> state.
$s = new FutureState();
$f = new Future($s);
$n = new Node("result cycle");
$n->ref = $f;
$s->complete($n);
$f->ignore();
unset($s, $f, $n);
var_dump(gc_collect_cycles() > 0);

// 2. A pending chain's closure holds the parent and the child.
$s = new FutureState();
$s->ignore();
$f = new Future($s);
$n = new Node("closure cycle");
$child = $f->map(function ($v) use ($n) { return $v; })->ignore();
$n->ref = [$f, $child, $s];
unset($s, $f, $n, $child);
var_dump(gc_collect_cycles() > 0);

// 3. The error holds the future.
$s = new FutureState();
$e = new CyclicException("cyclic");
$n = new Node("error cycle");
$n->ref = $s;
$e->node = $n;
$s->error($e);
$s->ignore();
unset($s, $e, $n);
var_dump(gc_collect_cycles() > 0);

// 4. Garbage that was never used still warns when the GC frees it.
$s = new FutureState();
$n = new Node("unused in a cycle");
$n->ref = $s;
$s->complete($n);
unset($s, $n);
var_dump(gc_collect_cycles() > 0);

// 5. A future someone awaits is not garbage, even if only a cycle holds it otherwise.
$s = new FutureState();
$f = new Future($s);
$n = new Node("awaited");
$child = $f->map(function ($v) use ($n) { return "$v mapped"; });
$n->ref = [$f, $child];
$waiter = spawn(function () use ($child) { return $child->await(); });
$writer = $s;
unset($f, $n, $child, $s);
delay(1);
var_dump(gc_collect_cycles());
echo "still alive\n";
$writer->complete("ok");
var_dump(await($waiter));
unset($writer, $waiter);
gc_collect_cycles();
echo "end\n";
?>
--EXPECTF--
destroyed result cycle
bool(true)
destroyed closure cycle
bool(true)
destroyed error cycle
bool(true)

Warning: Future created at %s015-gc-cycles.php:40 was never used; call await(), map(), catch(), finally() or ignore() to suppress this warning in %s on line %d
destroyed unused in a cycle
bool(true)
int(0)
still alive
destroyed awaited
string(9) "ok mapped"
end
