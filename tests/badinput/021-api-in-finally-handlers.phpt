--TEST--
Coroutine::finally() handlers re-entering the API: spawn/await/suspend/delay/cancel/protect/finally inside them, and the state they observe
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/api.inc';
use function Async\{spawn, await, suspend, delay, protect, current_coroutine};

// 1. The whole API from a handler of a coroutine that finished normally.
$c = spawn(fn() => "body");
$apiDone = false;
$c->finally(function () use (&$apiDone) {
    exercise_api("finally handler");
    $apiDone = true;
});
var_dump(await($c));
while (!$apiDone) {
    delay(1); /* the handler runs after the coroutine, in a helper, and waits in places */
}

// 2. A handler sees its coroutine as completed, with the result or exception available.
$ok = spawn(fn() => "R");
$ok->finally(function ($co) {
    echo "ok handler: completed=", var_export($co->isCompleted(), true), " running=", var_export($co->isRunning(), true),
        " result=", var_export($co->getResult(), true), "\n";
});
await($ok);
$bad = spawn(function () { throw new LogicException("E"); });
$bad->finally(function ($co) {
    echo "failed handler: completed=", var_export($co->isCompleted(), true),
        " exception=", $co->getException() ? get_class($co->getException()) : "NULL", "\n";
});
try { await($bad); } catch (LogicException $e) {}

// 3. Re-entrant operations on the coroutine itself and on others from its handler.
$other = spawn(fn() => delay(100000));
$self = spawn(fn() => "self");
$selfDone = false;
$self->finally(function ($co) use ($other, &$selfDone) {
    api_try("cancel own coroutine", fn() => $co->cancel(new Async\AsyncCancellation("from own handler")));
    api_try("register another handler", fn() => $co->finally(fn() => print("  <handler added by a handler ran>\n")));
    api_try("await own coroutine with a token", fn() => await($co, spawn(fn() => delay(2))));
    api_try("cancel another coroutine", fn() => $other->cancel(new Async\AsyncCancellation("from a handler")));
    api_try("await the cancelled one", fn() => await($other));
    api_try("protect with a wait", fn() => protect(fn() => delay(1) ?? "protected"));
    $selfDone = true;
});
api_try("await self", fn() => await($self));
while (!$selfDone) {
    delay(1);
}

// 4. A coroutine cancelled before it started completes on its turn, without running its callable;
//    its handlers then run after it, in a helper coroutine, like any coroutine's, and may wait.
$ns = spawn(fn() => print("never\n"));
$nsDone = false;
$ns->finally(function ($co) use (&$nsDone) {
    api_try("handler: own coroutine is cancelled", fn() => $co->isCancelled());
    api_try("handler: delay", fn() => delay(1));
    api_try("handler: spawn+await", fn() => await(spawn(fn() => "inner")));
    $nsDone = true;
});
api_try("cancel not-started", fn() => $ns->cancel());
api_try("await the not-started one", fn() => await($ns));
while (!$nsDone) {
    delay(1); /* its handler runs after it, and may wait */
}

// 5. A throwing handler does not stop the others; await reports the coroutine's own result, and
// the handler's error goes to the coroutine's scope (its exception handler here).
$scope = new Async\Scope();
$scope->setExceptionHandler(function ($scope, $co, Throwable $e) { echo "  scope handler: ", get_class($e), ": ", $e->getMessage(), "\n"; });
$t = $scope->spawn(fn() => "t");
$t->finally(function () { delay(1); throw new RuntimeException("handler 1 failed"); });
$t->finally(function () { echo "  handler 2 still runs\n"; });
api_try("await with failing handler", fn() => await($t));
$scope->awaitCompletion(Async\timeout(1000));
echo "end\n";
?>
--EXPECTF--
[finally handler]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
string(4) "body"
  <coroutine spawned in finally handler ran>
  <finally handler from finally handler>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/finally handler]
ok handler: completed=true running=false result='R'
failed handler: completed=true exception=LogicException
  cancel own coroutine: NULL
  <handler added by a handler ran>
  register another handler: NULL
  await own coroutine with a token: 'self'
  cancel another coroutine: NULL
  await self: 'self'
  await the cancelled one threw Async\AsyncCancellation: from a handler
  protect with a wait: 'protected'
  cancel not-started: NULL
  handler: own coroutine is cancelled: true
  await the not-started one threw Async\AsyncCancellation: Coroutine cancelled
  handler: delay: NULL
  handler: spawn+await: 'inner'
  await with failing handler: 't'
  handler 2 still runs
  scope handler: RuntimeException: handler 1 failed
end
