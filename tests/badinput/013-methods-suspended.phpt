--TEST--
Every Coroutine method on a suspended coroutine (waiting on a timer, and waiting on another coroutine)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/methods.inc';
use function Async\{spawn, await, suspend, delay};

function inner_wait() { delay(100000); }
$timer = spawn(function () { inner_wait(); return "timer done"; });
$waiter = spawn(fn() => await($timer));
suspend();
echo "suspended on a timer:\n";
call_all_getters($timer);
echo "suspended on a coroutine:\n";
call_all_getters($waiter);
try_call("getTrace(DEBUG_BACKTRACE_IGNORE_ARGS, 1)", fn() => count($timer->getTrace(DEBUG_BACKTRACE_IGNORE_ARGS, 1)));
try_call("getContext()->set", fn() => $timer->getContext()->set("k", "v") instanceof Async\Context);
try_call("finally", fn() => $timer->finally(fn($co) => print("  [finally of timer]\n")));
try_call("asHiPriority", fn() => $timer->asHiPriority() === $timer);
try_call("cancel", fn() => $timer->cancel(new Async\AsyncCancellation("wake up")));
echo "cancel requested, not yet run:\n";
try_call("isCancellationRequested", fn() => $timer->isCancellationRequested());
try_call("isCompleted", fn() => $timer->isCompleted());
try_call("await waiter (gets the timer's cancellation)", fn() => await($waiter));
try_call("await timer", fn() => await($timer));
try_call("waiter isCancelled", fn() => $waiter->isCancelled());
try_call("waiter getException", fn() => get_class($waiter->getException()));
?>
--EXPECTF--
suspended on a timer:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: NULL
  getSpawnFileAndLine: [013-methods-suspended.php, 6]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [013-methods-suspended.php, 5]
  getSuspendLocation:   getSuspendLocation threw Error: Call to undefined function ctype_digit()
  isStarted: true
  isQueued: false
  isRunning: true
  isSuspended: true
  isCancelled: false
  isCancellationRequested: false
  isCompleted: false
  getAwaitingInfo: [Timer(100000 ms)]
  getTrace: [Async\delay(), inner_wait(), {closure%S}()]
suspended on a coroutine:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: NULL
  getSpawnFileAndLine: [013-methods-suspended.php, 7]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [013-methods-suspended.php, 7]
  getSuspendLocation:   getSuspendLocation threw Error: Call to undefined function ctype_digit()
  isStarted: true
  isQueued: false
  isRunning: true
  isSuspended: true
  isCancelled: false
  isCancellationRequested: false
  isCompleted: false
  getAwaitingInfo: [Coroutine 3 spawned at %s:6, suspended at %s:5 (%r(Closure::__invoke|\{closure:%s013-methods-suspended\.php:6\})%r)]
  getTrace: [Async\await(), {closure%S}()]
  getTrace(DEBUG_BACKTRACE_IGNORE_ARGS, 1): 1
  getContext()->set: true
  finally: NULL
  asHiPriority: true
  cancel: NULL
cancel requested, not yet run:
  isCancellationRequested: true
  isCompleted: false
  [finally of timer]
  await waiter (gets the timer's cancellation) threw Async\AsyncCancellation: wake up
  await timer threw Async\AsyncCancellation: wake up
  waiter isCancelled: true
  waiter getException: 'Async\\AsyncCancellation'
