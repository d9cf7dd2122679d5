--TEST--
await_*: triggers that are cancelled (before they start, while suspended, a cancelled Future or Timeout) settle with their cancellation
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState};
use function Async\{await_all, await_all_or_fail, await_first_success, await_any_or_fail, spawn, delay, suspend, timeout};

$notStarted = spawn(fn() => 'never');
$notStarted->cancel();
$suspended = spawn(function () { delay(1000); return 'never'; });
$state = new FutureState();
$future = new Future($state);
$timeout = timeout(1000);
$ok = spawn(fn() => 'ok');

spawn(function () use ($suspended, $future, $timeout) {
    suspend();
    $suspended->cancel(new Async\AsyncCancellation('cancelled while suspended'));
    $future->cancel();
    $timeout->cancel();
});
[$results, $errors] = await_all(compact('notStarted', 'suspended', 'future', 'timeout', 'ok'));
var_dump($results);
foreach ($errors as $k => $e) {
    echo "$k: ", describe($e), "\n";
}
var_dump($suspended->isCancelled(), $future->isCancelled(), $timeout->isCancelled());

// await_all_or_fail throws the cancellation like any error; await_first_success skips it.
try { await_all_or_fail([$ok, $notStarted]); } catch (Async\AsyncCancellation $e) { echo "all_or_fail: ", describe($e), "\n"; }
echo json_encode(await_first_success([$notStarted, $ok])[0]), "\n";

// Cancelled while the wait is on: the waiter is woken with it as the trigger's outcome.
$victim = spawn(function () { delay(1000); });
spawn(function () use ($victim) { delay(5); $victim->cancel(); });
try { await_any_or_fail([$victim]); } catch (Async\AsyncCancellation $e) { echo "any_or_fail: ", describe($e), "\n"; }
?>
--EXPECT--
array(1) {
  ["ok"]=>
  string(2) "ok"
}
notStarted: Async\AsyncCancellation(Coroutine cancelled)
suspended: Async\AsyncCancellation(cancelled while suspended)
future: Async\AsyncCancellation(Future has been cancelled)
timeout: Async\AsyncCancellation(Timeout has been cancelled)
bool(true)
bool(true)
bool(true)
all_or_fail: Async\AsyncCancellation(Coroutine cancelled)
"ok"
any_or_fail: Async\AsyncCancellation(Coroutine cancelled)
