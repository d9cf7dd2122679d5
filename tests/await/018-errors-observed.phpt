--TEST--
await_*: the errors a wait consumes are marked handled (no unhandled-error shutdown, no Future warning), also when replayed
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{await_any_or_fail, await_first_success, await_all_or_fail, await_all, await_any_of_or_fail, await_any_of, spawn, delay, suspend};

// Handles dropped right after: only the wait observed these errors.
[, $errors] = await_all([spawn(fn() => throw new RuntimeException('e1')), spawn(function () { delay(1); throw new RuntimeException('e2'); })]);
echo "await_all: ", implode(', ', array_map(fn($e) => $e->getMessage(), $errors)), "\n";
try { await_all_or_fail([spawn(fn() => throw new RuntimeException('e3'))]); } catch (RuntimeException $e) { echo "await_all_or_fail: ", $e->getMessage(), "\n"; }
try { await_any_or_fail([spawn(fn() => throw new RuntimeException('e4'))]); } catch (RuntimeException $e) { echo "await_any_or_fail: ", $e->getMessage(), "\n"; }
try { await_any_of_or_fail(1, [spawn(fn() => throw new RuntimeException('e5'))]); } catch (RuntimeException $e) { echo "await_any_of_or_fail: ", $e->getMessage(), "\n"; }
[, $errors] = await_first_success([spawn(fn() => throw new RuntimeException('e6'))]);
echo "await_first_success: ", $errors[0]->getMessage(), "\n";
[, $errors] = await_any_of(1, [spawn(fn() => throw new RuntimeException('e7'))]);
echo "await_any_of: ", $errors[0]->getMessage(), "\n";

// A coroutine that failed before anyone looked, then replayed.
$failed = spawn(fn() => throw new RuntimeException('e8'));
suspend();
[, $errors] = await_all([$failed]);
unset($failed);
echo "replayed: ", $errors[0]->getMessage(), "\n";

// Futures: no "Unhandled exception in Future" warning for a consumed error.
$state = new FutureState();
spawn(function () use ($state) { suspend(); $state->error(new LogicException('f1')); });
[, $errors] = await_all([new Future($state)]);
unset($state);
echo "future: ", $errors[0]->getMessage(), "\n";
[, $errors] = await_all([Future::failed(new LogicException('f2'))]);
echo "failed future: ", $errors[0]->getMessage(), "\n";
echo "end\n";
?>
--EXPECT--
await_all: e1, e2
await_all_or_fail: e3
await_any_or_fail: e4
await_any_of_or_fail: e5
await_first_success: e6
await_any_of: e7
replayed: e8
future: f1
failed future: f2
end
