--TEST--
Pool: GC keeps idle resources alive (the pool reports them), and collects a pool caught in a cycle with its resources, callables or strategy
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Pool, CircuitBreakerStrategy};
use function Async\{spawn, await, suspend};

class Res {
    public $self;
    public $pool;
    public function __construct(public string $name) { $this->self = $this; }
    public function __destruct() { echo "Res {$this->name} freed\n"; }
}

// (a) Idle resources referenced only by the pool, with cycles of their own, survive collection.
$pool = new Pool(function () { static $i = 0; return new Res("a" . ++$i); }, min: 3);
$r = $pool->acquire();
$pool->release($r);
unset($r);
gc_collect_cycles();
$names = [];
for ($i = 0; $i < 3; $i++) { $x = $pool->acquire(); $names[] = $x->name . ($x->self === $x ? "" : "!"); $pool->release($x); }
unset($x);
echo implode(",", $names), "\n";
gc_collect_cycles();
echo "still ", $pool->idleCount(), " idle\n";

// (b) A pool whose idle resource points back at it: only the cycle holds them.
$p = new Pool(fn() => new Res("b"), destructor: function (Res $r) { echo "destructor {$r->name}\n"; $r->pool = null; }, min: 1);
$x = $p->acquire();
$x->pool = $p;
$p->release($x);
unset($x, $p);
$n = gc_collect_cycles();
echo "collected: ", $n > 0 ? "yes" : "no", "\n";

// (c) A pool reachable from its own factory.
$p = null;
$p = new Pool(function () use (&$p) { $r = new Res("c"); return $r; }, destructor: fn($r) => print("destructor c\n"), min: 1);
unset($p);
$n = gc_collect_cycles();
echo "collected: ", $n > 0 ? "yes" : "no", "\n";

// (d) A strategy that holds the pool.
class Holder implements CircuitBreakerStrategy {
    public $pool;
    public function reportSuccess(mixed $source): void {}
    public function reportFailure(mixed $source, \Throwable $error): void {}
    public function shouldRecover(): bool { return false; }
}
$p = new Pool(fn() => new Res("d"), min: 1);
$h = new Holder;
$h->pool = $p;
$p->setCircuitBreakerStrategy($h);
unset($p, $h);
$n = gc_collect_cycles();
echo "collected: ", $n > 0 ? "yes" : "no", "\n";

// (e) While a coroutine waits on a pool in a cycle, nothing is collected; it is served later.
$p = null;
$p = new Pool(function () use (&$p) { return new Res("e"); }, max: 1);
$held = $p->acquire();
$w = spawn(function () use (&$p) { $r = $p->acquire(); echo "waiter got {$r->name}\n"; $p->release($r); });
suspend();
$pool_ref = WeakReference::create($p);
$p2 = $p;
unset($p);
$p = $p2;
unset($p2);
gc_collect_cycles();
$p->release($held);
unset($held);
await($w);
echo "pool alive: ", $pool_ref->get() ? "yes" : "no", "\n";
unset($p, $w);
gc_collect_cycles();
echo "pool alive: ", $pool_ref->get() ? "yes" : "no", "\n";
unset($pool); // its idle resources (self-referencing) become garbage
gc_collect_cycles();
echo "end\n";
?>
--EXPECT--
a2,a3,a1
still 3 idle
destructor b
Res b freed
collected: yes
Res c freed
destructor c
collected: yes
Res d freed
collected: yes
waiter got e
pool alive: yes
Res e freed
pool alive: no
Res a1 freed
Res a2 freed
Res a3 freed
end
