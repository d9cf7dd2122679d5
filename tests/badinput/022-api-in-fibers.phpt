--TEST--
The API from inside user Fibers: in a coroutine, in main before launch, across coroutines, with Fiber::suspend() in awkward places
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/api.inc';
use function Async\{spawn, await, suspend, delay, protect, current_coroutine};

// 1. A Fiber created before the scheduler exists launches it from inside the fiber.
$f = new Fiber(function () { exercise_api("fiber before launch"); return "fiber 1 done"; });
$f->start();
var_dump($f->getReturn());

// 2. A Fiber inside a coroutine.
var_dump(await(spawn(function () {
    $f = new Fiber(function () { exercise_api("fiber in coroutine"); return "fiber 2 done"; });
    $f->start();
    return $f->getReturn();
})));

// 3. Fiber::suspend() inside protect() and inside a finally handler.
var_dump(await(spawn(function () {
    $f = new Fiber(fn() => protect(fn() => "protect got " . Fiber::suspend("suspended in protect")));
    $first = $f->start();
    $f->resume("resumed");
    return "$first / " . $f->getReturn();
})));
$c = spawn(fn() => 1);
$c->finally(function () {
    $f = new Fiber(function () { $x = Fiber::suspend(1); echo "fiber in handler got $x\n"; });
    $f->start();
    $f->resume("y");
});
await($c);

// 4. Fiber::suspend() with no fiber, inside a coroutine: FiberError, not a scheduler switch.
api_try("Fiber::suspend outside a fiber", fn() => await(spawn(fn() => Fiber::suspend(1))));

// 5. A fiber started in one coroutine and resumed in another; it keeps waiting correctly.
$fiber = null;
await(spawn(function () use (&$fiber) {
    $fiber = new Fiber(function () { $v = Fiber::suspend(); delay(1); return "resumed with $v"; });
    $fiber->start();
}));
var_dump(await(spawn(function () use ($fiber) { $fiber->resume("x"); return $fiber->getReturn(); })));

// 6. A coroutine is cancelled while its fiber waits; the fiber sees the cancellation.
$c = spawn(function () {
    $f = new Fiber(function () {
        try { delay(100000); } catch (Async\AsyncCancellation $e) { echo "fiber saw: ", $e->getMessage(), "\n"; throw $e; }
    });
    $f->start();
});
suspend();
$c->cancel(new Async\AsyncCancellation("cancel the fiber's coroutine"));
api_try("await", fn() => await($c));

// 7. A fiber left suspended when its coroutine finishes does not block anything.
var_dump(await(spawn(function () {
    $f = new Fiber(function () { Fiber::suspend(); echo "never resumed\n"; });
    $f->start();
    return "left a suspended fiber";
})));
echo "end\n";
?>
--EXPECTF--
[fiber before launch]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in fiber before launch ran>
  <finally handler from fiber before launch>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/fiber before launch]
string(12) "fiber 1 done"
[fiber in coroutine]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in fiber in coroutine ran>
  <finally handler from fiber in coroutine>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/fiber in coroutine]
string(12) "fiber 2 done"
string(42) "suspended in protect / protect got resumed"
fiber in handler got y
  Fiber::suspend outside a fiber threw FiberError: Cannot suspend outside of a fiber
string(14) "resumed with x"
fiber saw: cancel the fiber's coroutine
  await threw Async\AsyncCancellation: cancel the fiber's coroutine
string(22) "left a suspended fiber"
end
