--TEST--
Every Coroutine method on finished, failed, cancelled-while-suspended and exited-by-uncaught-cancellation coroutines
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/methods.inc';
use function Async\{spawn, await, suspend, delay};

$finished = spawn(fn() => ["value" => 42]);
$failed = spawn(function () { delay(1); throw new DomainException("failed body"); });
$cancelled = spawn(function () { delay(100000); });
$nullResult = spawn(function () { });
suspend();
$cancelled->cancel(new Async\AsyncCancellation("cancelled while suspended"));
foreach ([$finished, $failed, $cancelled, $nullResult] as $c) {
    try { await($c); } catch (Throwable $e) {}
}
foreach (['finished' => $finished, 'failed' => $failed, 'cancelled' => $cancelled, 'returned nothing' => $nullResult] as $label => $c) {
    echo "$label:\n";
    call_all_getters($c);
    try_call("getContext()->set after finish", fn() => $c->getContext()->set("late", 1)->get("late"));
    try_call("finally runs at once", fn() => $c->finally(fn($co) => print("  [late finally: " . describe_value($co->getResult() ?? $co->getException(), $co) . "]\n")));
    try_call("cancel is a no-op", fn() => $c->cancel(new Async\AsyncCancellation("too late")));
    try_call("await replays", fn() => await($c));
    try_call("await replays again", fn() => await($c));
    try_call("still the same exception", fn() => $c->getException()?->getMessage());
}
?>
--EXPECT--
finished:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: [42]
  getException: NULL
  getSpawnFileAndLine: [014-methods-finished-failed-cancelled.php, 5]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [NULL, 0]
  getSuspendLocation: 'unknown'
  isStarted: true
  isQueued: false
  isRunning: false
  isSuspended: false
  isCancelled: false
  isCancellationRequested: false
  isCompleted: true
  getAwaitingInfo: []
  getTrace: NULL
  getContext()->set after finish: 1
  [late finally: [42]]
  finally runs at once: NULL
  cancel is a no-op: NULL
  await replays: array (
  'value' => 42,
)
  await replays again: array (
  'value' => 42,
)
  still the same exception: NULL
failed:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: DomainException(failed body)
  getSpawnFileAndLine: [014-methods-finished-failed-cancelled.php, 6]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [014-methods-finished-failed-cancelled.php, 6]
  getSuspendLocation:   getSuspendLocation threw Error: Call to undefined function ctype_digit()
  isStarted: true
  isQueued: false
  isRunning: false
  isSuspended: false
  isCancelled: false
  isCancellationRequested: false
  isCompleted: true
  getAwaitingInfo: []
  getTrace: NULL
  getContext()->set after finish: 1
  [late finally: DomainException(failed body)]
  finally runs at once: NULL
  cancel is a no-op: NULL
  await replays threw DomainException: failed body
  await replays again threw DomainException: failed body
  still the same exception: 'failed body'
cancelled:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: Async\AsyncCancellation(cancelled while suspended)
  getSpawnFileAndLine: [014-methods-finished-failed-cancelled.php, 7]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [014-methods-finished-failed-cancelled.php, 7]
  getSuspendLocation:   getSuspendLocation threw Error: Call to undefined function ctype_digit()
  isStarted: true
  isQueued: false
  isRunning: false
  isSuspended: false
  isCancelled: true
  isCancellationRequested: false
  isCompleted: true
  getAwaitingInfo: []
  getTrace: NULL
  getContext()->set after finish: 1
  [late finally: Async\AsyncCancellation(cancelled while suspended)]
  finally runs at once: NULL
  cancel is a no-op: NULL
  await replays threw Async\AsyncCancellation: cancelled while suspended
  await replays again threw Async\AsyncCancellation: cancelled while suspended
  still the same exception: 'cancelled while suspended'
returned nothing:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: NULL
  getSpawnFileAndLine: [014-methods-finished-failed-cancelled.php, 8]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [NULL, 0]
  getSuspendLocation: 'unknown'
  isStarted: true
  isQueued: false
  isRunning: false
  isSuspended: false
  isCancelled: false
  isCancellationRequested: false
  isCompleted: true
  getAwaitingInfo: []
  getTrace: NULL
  getContext()->set after finish: 1
  [late finally: NULL]
  finally runs at once: NULL
  cancel is a no-op: NULL
  await replays: NULL
  await replays again: NULL
  still the same exception: NULL
