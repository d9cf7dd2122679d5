--TEST--
await_* over an iterator: the helper and what the iterator spawns live in a child scope of the caller's; it is cancelled when the iteration throws; otherwise what it spawned runs on (and may spawn)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Scope;
use function Async\{spawn, await, await_all, await_any_or_fail, delay, current_coroutine};

$log = [];
$gen = function () use (&$log) {
    yield 'a' => spawn(function () use (&$log) {
        try {
            delay(5000);
            $log[] = 'a done';
        } catch (Async\AsyncCancellation $e) {
            $log[] = 'a: ' . $e->getMessage();
        } finally {
            $log[] = 'a finally';
        }
    });
    delay(1);
    throw new RuntimeException('the iterator broke');
};
try {
    await_all($gen());
} catch (RuntimeException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
delay(5);
echo implode(' | ', $log), "\n";

/* the child scope hangs under the caller's scope */
$outer = new Scope();
$seen = await($outer->spawn(function () use ($outer) {
    $gen = (function () use ($outer) {
        yield spawn(fn() => count($outer->getChildScopes()));
    })();
    return await_all($gen)[0][0];
}));
echo "child scopes of the caller's scope while iterating: $seen\n";

/* no throw: a loser the iterator spawned runs on, and may spawn in turn */
$log = [];
$winner = await_any_or_fail((function () use (&$log) {
    yield spawn(fn() => 'fast');
    yield spawn(function () use (&$log) {
        delay(10);
        $log[] = 'slow: ' . await(spawn(fn() => 'spawned later'));
    });
})());
delay(30);
echo "$winner; ", implode(' | ', $log), "\n";
?>
--EXPECT--
RuntimeException: the iterator broke
a: Scope was cancelled | a finally
child scopes of the caller's scope while iterating: 1
fast; slow: spawned later
