--TEST--
TaskGroup: cycles through queued callables, results, errors, finally handlers and pending futures are collected by the GC
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{TaskGroup, TaskSet, AsyncCancellation};
use function Async\{delay, suspend};

class HeldError extends RuntimeException { public $group; public $probe; }
class Probe { public $ref; function __construct(public string $name) {} function __destruct() { echo "destroyed {$this->name}\n"; } }

// A queued callable that holds the group: group -> callable -> group.
$g = new TaskGroup(1);
$g->spawn(function () { try { delay(1000); } catch (AsyncCancellation $e) { echo "running task: ", $e->getMessage(), "\n"; } });
$p = new Probe("queued");
$g->spawn(function () use ($g, $p) { echo "never runs\n"; });
unset($p);
suspend();
unset($g);
$n = gc_collect_cycles();
echo "collected: ", $n > 0 ? "yes" : "no", "\n";
suspend();

// A result that holds the group.
$r = new TaskGroup();
$r->spawn(function () use ($r) { $p = new Probe("result"); $p->ref = $r; return $p; });
suspend();
unset($r);
$n = gc_collect_cycles();
echo "collected: ", $n > 0 ? "yes" : "no", "\n";

// An error that holds the group.
$e = new TaskGroup();
$e->spawn(function () use ($e) { $x = new HeldError("held"); $x->group = $e; $x->probe = new Probe("error"); throw $x; });
suspend();
$e->suppressErrors();
unset($e);
$n = gc_collect_cycles();
echo "collected: ", $n > 0 ? "yes" : "no", "\n";

// A finally handler that holds the group.
$f = new TaskGroup();
$f->spawn(fn() => delay(1000));
$probe = new Probe("finally");
$f->finally(function () use ($f, $probe) { echo "finally must not run for a destroyed group\n"; });
unset($probe);
suspend();
unset($f);
$n = gc_collect_cycles();
echo "collected: ", $n > 0 ? "yes" : "no", "\n";

// A pending future whose result would hold the group.
$j = new TaskGroup(1);
$j->spawn(fn() => delay(1000));
$fut = $j->all();
$fut->ignore();
$holder = new Probe("future");
$holder->ref = $j; // the only way back to the group is through the pending future it holds
$fut->map(function () use ($holder) {})->ignore();
unset($j, $fut, $holder);
$n = gc_collect_cycles();
echo "collected: ", $n > 0 ? "yes" : "no", "\n";
delay(5);
echo "end\n";
?>
--EXPECT--
destroyed queued
collected: yes
running task: Scope is being disposed due to TaskGroup destruction
destroyed result
collected: yes
destroyed error
collected: yes
destroyed finally
collected: yes
destroyed future
collected: yes
end
