--TEST--
Scope::inherit, getChildScopes, and the Context scope chain (current_context, root_context, request_context)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, current_context, root_context, request_context, coroutine_context};

// At top level current_context() is the main scope's context, the same as root_context().
var_dump(current_context() === root_context());
root_context()->set('app', 'root value');
$key = new stdClass;
root_context()->set($key, 'object key');

$child = Scope::inherit();
$r = await($child->spawn(function () use ($key) {
    $ctx = current_context();
    $out = [$ctx->find('app'), $ctx->get($key), $ctx->has('app'), $ctx->hasLocal('app'), $ctx->findLocal('app')];
    $ctx->set('app', 'shadowed');
    $grand = Scope::inherit();
    $out[] = await($grand->spawn(fn() => current_context()->find('app')));
    // A coroutine's own context is not linked: local only.
    $out[] = coroutine_context()->find('app');
    return $out;
}));
var_dump($r);
var_dump(root_context()->get('app'));

// A detached new Scope() is a root: the main scope's context is out of reach.
$d = new Scope();
var_dump(await($d->spawn(fn() => [current_context()->find('app'), current_context() === root_context()])));
try { await($d->spawn(fn() => current_context()->get('app'))); } catch (Async\ContextException $e) { echo $e->getMessage(), "\n"; }

var_dump(request_context());

// Scopes that have no context yet are skipped by the walk.
$a = Scope::inherit();
$b = Scope::inherit($a);
var_dump(await($b->spawn(fn() => current_context()->find('app'))));

// getChildScopes lists live children only.
$p = new Scope();
$k1 = Scope::inherit($p);
$k2 = Scope::inherit($p);
$kids = $p->getChildScopes();
var_dump(count($kids), in_array($k1, $kids, true), in_array($k2, $kids, true));
$k1->dispose();
var_dump(count($p->getChildScopes()));
// inherit() takes its safe flag from the parent.
$np = Scope::inherit($p);
$c = $np->spawn(fn() => Async\delay(5000));
Async\delay(1);
$np->cancel();
try { await($c); } catch (Async\AsyncCancellation $e) { echo "not-safe parent => not-safe child\n"; }
?>
--EXPECT--
bool(true)
array(7) {
  [0]=>
  string(10) "root value"
  [1]=>
  string(10) "object key"
  [2]=>
  bool(true)
  [3]=>
  bool(false)
  [4]=>
  NULL
  [5]=>
  string(8) "shadowed"
  [6]=>
  NULL
}
string(10) "root value"
array(2) {
  [0]=>
  NULL
  [1]=>
  bool(false)
}
Context key "app" not found
NULL
string(10) "root value"
int(2)
bool(true)
bool(true)
int(1)
not-safe parent => not-safe child
