--TEST--
await_*: triggers that already completed are replayed through the same path, without suspending; repeated calls give the same outcome
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState};
use function Async\{await_any_or_fail, await_first_success, await_all_or_fail, await_all, await_any_of_or_fail, await_any_of, await, spawn, timeout};

$ok = spawn(fn() => 'ok');
$failed = spawn(fn() => throw new RuntimeException('failed'));
$cancelled = spawn(fn() => 'never runs');
$cancelled->cancel();
await_all([$ok, $failed]); // now they are finished
$firedTimeout = timeout(1);
try { await(new Future(new FutureState()), $firedTimeout); } catch (Async\OperationCanceledException) {}

$done = [
    'ok' => $ok,
    'failed' => $failed,
    'cancelled' => $cancelled,
    'future' => Future::completed(['v' => 1]),
    'failed future' => Future::failed(new LogicException('future failed')),
    'timeout' => $firedTimeout,
];

$ran = false;
$bystander = spawn(function () use (&$ran) { $ran = true; });
for ($i = 0; $i < 2; $i++) {
    [$results, $errors] = await_all($done, null, true, true);
    echo "round $i: ", json_encode($results), "\n";
    foreach ($errors as $k => $e) {
        echo "  $k: ", describe($e), "\n";
    }
}
var_dump(await_any_or_fail($done));
echo json_encode(pair_summary(await_first_success(['failed' => $failed, 'ok' => $ok]))), "\n";
try { await_all_or_fail($done); } catch (RuntimeException $e) { echo "all_or_fail: ", describe($e), "\n"; }
echo json_encode(await_any_of_or_fail(2, ['x' => $ok, 'y' => $done['future']])), "\n";
echo json_encode(pair_summary(await_any_of(1, ['e' => $failed, 'x' => $ok]))), "\n";
// Each call replayed at once: the bystander coroutine never got a turn.
var_dump($ran);
await($bystander);
var_dump($ran);

// The same error object every time.
$a = await_all([$failed])[1][0];
$b = await_all([$failed])[1][0];
var_dump($a === $b, $a === $failed->getException());
?>
--EXPECT--
round 0: {"ok":"ok","failed":null,"cancelled":null,"future":{"v":1},"failed future":null,"timeout":null}
  failed: RuntimeException(failed)
  cancelled: Async\AsyncCancellation(Coroutine cancelled)
  failed future: LogicException(future failed)
  timeout: Async\TimeoutException(Timeout occurred after 1 milliseconds)
round 1: {"ok":"ok","failed":null,"cancelled":null,"future":{"v":1},"failed future":null,"timeout":null}
  failed: RuntimeException(failed)
  cancelled: Async\AsyncCancellation(Coroutine cancelled)
  failed future: LogicException(future failed)
  timeout: Async\TimeoutException(Timeout occurred after 1 milliseconds)
string(2) "ok"
["ok",{"failed":"failed"}]
all_or_fail: RuntimeException(failed)
{"x":"ok","y":{"v":1}}
[{"x":"ok"},{"e":"failed"}]
bool(false)
bool(true)
bool(true)
bool(true)
