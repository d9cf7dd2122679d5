--TEST--
Future: errors are rethrown (the same object every time) and finished futures replay for late subscribers
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, delay, suspend};

$state = new FutureState();
$future = new Future($state);
$early = spawn(function () use ($future) {
    try { $future->await(); } catch (RuntimeException $e) { return $e; }
});
spawn(function () use ($state) { delay(5); $state->error(new RuntimeException("boom")); });
$first = await($early);
echo get_class($first), ": ", $first->getMessage(), "\n";

// Late subscribers: await() and Future::await() replay without suspending.
$ran = false;
$bystander = spawn(function () use (&$ran) { $ran = true; });
$seen = [];
for ($i = 0; $i < 3; $i++) {
    try { $i % 2 ? await($future) : $future->await(); } catch (RuntimeException $e) { $seen[] = $e; }
}
var_dump($ran, count($seen), $seen[0] === $first, $seen[1] === $first, $seen[2] === $first);
await($bystander);

// From another coroutine, after completion.
echo await(spawn(function () use ($future) {
    try { await($future); } catch (RuntimeException $e) { return "late coroutine: " . $e->getMessage(); }
})), "\n";

// A resolved future replays its value; a chain added afterwards still runs.
$ok = Future::completed("v");
var_dump(await($ok), $ok->await(), await($ok->map(fn($v) => "$v!")));

// Future::failed() keeps the given object.
$ex = new LogicException("given");
$failed = Future::failed($ex);
var_dump($failed->isCompleted(), $failed->isCancelled());
try { await($failed); } catch (LogicException $e) { var_dump($e === $ex); }
try { Future::failed(new Error("an Error is fine too"))->await(); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { Future::failed("nope"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
RuntimeException: boom
bool(false)
int(3)
bool(true)
bool(true)
bool(true)
late coroutine: boom
string(1) "v"
string(1) "v"
string(2) "v!"
bool(true)
bool(false)
bool(true)
Error: an Error is fine too
Async\Future::failed(): Argument #1 ($throwable) must be of type Throwable, string given
