--TEST--
await_*: waits inside scopes: a scope's cancellation reaches the waiter; coroutines a generator spawns belong to the caller's scope; a closed scope cannot host an iterator's helper
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Scope, Future, FutureState};
use function Async\{await_all, await_any_or_fail, await, spawn, delay, suspend, timeout, current_coroutine};

// A waiter in a scope that gets cancelled: the wait ends with the scope's cancellation.
$scope = new Scope();
$state = new FutureState();
$waiter = $scope->spawn(function () use ($state) {
    try { await_all([new Future($state), spawn(fn() => delay(1000))]); return 'not cancelled'; }
    catch (Async\AsyncCancellation $e) { return 'waiter: ' . describe($e); }
});
suspend();
$scope->cancel();
echo await($waiter), "\n";
echo "subscribers left: ", count($state->getAwaitingInfo()), "\n";
$state->ignore();

// Coroutines spawned inside the generator live in the caller's scope, which waits for them.
$scope = new Scope();
$result = await($scope->spawn(function () {
    $gen = (function () {
        yield 'a' => spawn(function () { delay(2); return 'A'; });
        yield 'b' => spawn(fn() => 'B');
    })();
    return await_all_or_fail_keys($gen);
}));
function await_all_or_fail_keys($gen) { return Async\await_all_or_fail($gen); }
echo json_encode($result), "\n";
$scope->awaitCompletion(timeout(1000));
echo "scope finished: ", var_export($scope->isFinished(), true), "\n";

// A generator spawning a coroutine that outlives an await_any_or_fail: still in the caller's scope.
$scope = new Scope();
$scope->spawn(function () {
    $gen = (function () {
        yield 'fast' => spawn(fn() => 'fast');
        yield 'slow' => spawn(function () { delay(20); echo "slow one finished in its scope\n"; });
    })();
    echo "any: ", await_any_or_fail($gen), "\n";
});
$scope->awaitCompletion(timeout(1000));
echo "after awaitCompletion\n";

// In a closed scope (a zombie of a safe scope), arrays work; iterators need a helper coroutine,
// which a closed scope refuses.
$safe = Scope::inherit()->allowZombies();
$zombie = $safe->spawn(function () {
    try { delay(5); } catch (Throwable $e) { echo "zombie interrupted: ", get_class($e), "\n"; }
    $out = [json_encode(await_all([Future::completed('array ok')])[0])];
    try { await_all(new ArrayIterator([Future::completed('x')->ignore()])); } catch (Async\AsyncException $e) { $out[] = $e->getMessage(); }
    return $out;
});
suspend();
$safe->dispose();
var_dump($safe->isClosed(), await($zombie));
?>
--EXPECT--
waiter: Async\AsyncCancellation(Scope was cancelled)
subscribers left: 0
{"a":"A","b":"B"}
scope finished: true
any: fast
slow one finished in its scope
after awaitCompletion
bool(true)
array(2) {
  [0]=>
  string(12) "["array ok"]"
  [1]=>
  string(42) "Cannot spawn a coroutine in a closed scope"
}
