--TEST--
Every Coroutine method on the running coroutine (current_coroutine() inside its own body), including self-await and self-cancel
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/methods.inc';
use function Async\{spawn, await, suspend, delay, current_coroutine};

$c = spawn(function () {
    $me = current_coroutine();
    echo "running:\n";
    call_all_getters($me);
    try_call("finally on itself", fn() => $me->finally(fn($co) => print("  [finally, same=" . var_export($co === $me, true) . "]\n")));
    // Awaiting itself can never complete; with a token it ends when the token fires.
    $token = spawn(fn() => delay(5));
    try_call("await itself with token", fn() => await($me, $token));
    try_call("cancel itself", fn() => $me->cancel(new Async\AsyncCancellation("self")));
    echo "after self-cancel (not yet delivered):\n";
    call_all_getters($me);
    try_call("suspend delivers it", fn() => suspend());
    try_call("next suspend is normal", fn() => suspend());
    return "finished normally";
});
try_call("await", fn() => await($c));
echo "afterwards: cancelled=", var_export($c->isCancelled(), true), " result=", var_export($c->getResult(), true), "\n";
?>
--EXPECT--
running:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: NULL
  getSpawnFileAndLine: [012-methods-running.php, 5]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [NULL, 0]
  getSuspendLocation: 'unknown'
  isStarted: true
  isQueued: false
  isRunning: true
  isSuspended: false
  isCancelled: false
  isCancellationRequested: false
  isCompleted: false
  getAwaitingInfo: []
  getTrace: NULL
  finally on itself: NULL
  await itself with token threw Async\OperationCanceledException: Operation has been cancelled
  cancel itself: NULL
after self-cancel (not yet delivered):
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: NULL
  getSpawnFileAndLine: [012-methods-running.php, 5]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [012-methods-running.php, 12]
  getSuspendLocation:   getSuspendLocation threw Error: Call to undefined function ctype_digit()
  isStarted: true
  isQueued: false
  isRunning: true
  isSuspended: false
  isCancelled: false
  isCancellationRequested: true
  isCompleted: false
  getAwaitingInfo: []
  getTrace: NULL
  suspend delivers it threw Async\AsyncCancellation: self
  next suspend is normal: NULL
  [finally, same=true]
  await: 'finished normally'
afterwards: cancelled=true result='finished normally'
