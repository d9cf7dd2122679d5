--TEST--
Every Coroutine method on a coroutine that has not started yet (then cancel/finally/await on it)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/methods.inc';
use function Async\{spawn, await, suspend};

$c = spawn(function () { echo "body must not run\n"; return 1; });
echo "not started:\n";
call_all_getters($c);
try_call("getContext()->set", fn() => $c->getContext()->set("from outside", 1)->has("from outside"));
try_call("finally", fn() => $c->finally(function ($co) use ($c) { echo "  [finally, same=", var_export($co === $c, true), "]\n"; }));
try_call("cancel", fn() => $c->cancel(new Async\AsyncCancellation("before start")));
echo "after cancel:\n";
call_all_getters($c);
try_call("cancel again", fn() => $c->cancel());
try_call("finally after completion", fn() => $c->finally(fn() => print("  [late finally runs at once]\n")));
try_call("await", fn() => await($c));
try_call("await again (replay)", fn() => await($c));
suspend();
echo "end\n";
?>
--EXPECT--
not started:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: NULL
  getSpawnFileAndLine: [011-methods-not-started.php, 5]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [NULL, 0]
  getSuspendLocation: 'unknown'
  isStarted: false
  isQueued: true
  isRunning: false
  isSuspended: true
  isCancelled: false
  isCancellationRequested: false
  isCompleted: false
  getAwaitingInfo: []
  getTrace: NULL
  getContext()->set: true
  finally: NULL
  cancel: NULL
after cancel:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: NULL
  getSpawnFileAndLine: [011-methods-not-started.php, 5]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [NULL, 0]
  getSuspendLocation: 'unknown'
  isStarted: false
  isQueued: true
  isRunning: false
  isSuspended: true
  isCancelled: false
  isCancellationRequested: true
  isCompleted: false
  getAwaitingInfo: []
  getTrace: NULL
  cancel again: NULL
  finally after completion: NULL
  [finally, same=true]
  [late finally runs at once]
  await threw Async\AsyncCancellation: before start
  await again (replay) threw Async\AsyncCancellation: before start
end
