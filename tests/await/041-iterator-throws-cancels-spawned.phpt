--TEST--
await_*: when the iterator throws, the coroutines it already spawned are cancelled at once, before the waiter resumes: none runs past its first suspension
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\AsyncCancellation;
use function Async\{spawn, suspend, await_all, await_all_or_fail, await_any_or_fail, await_first_success,
    await_any_of, await_any_of_or_fail};

$calls = [
    'await_all' => fn($it) => await_all($it),
    'await_all_or_fail' => fn($it) => await_all_or_fail($it),
    'await_any_or_fail' => fn($it) => await_any_or_fail($it),
    'await_first_success' => fn($it) => await_first_success($it),
    'await_any_of' => fn($it) => await_any_of(2, $it),
    'await_any_of_or_fail' => fn($it) => await_any_of_or_fail(2, $it),
];

/* A coroutine that logs its start, suspends once, and logs whether it got past that point. */
function body(string $name, array &$log): Closure
{
    return function () use ($name, &$log) {
        $log[] = "$name started";
        try {
            suspend();
            $log[] = "$name ran on";
        } catch (AsyncCancellation $e) {
            $log[] = "$name cancelled";
        }
    };
}

foreach ($calls as $name => $call) {
    $log = [];
    $gen = function () use (&$log) {
        spawn(body('side', $log));              // spawned, never yielded
        yield 'a' => spawn(body('trigger', $log)); // a trigger that does not settle by itself
        suspend();                              // both start and stop at their suspension
        throw new RuntimeException('iterator failed');
    };
    try {
        $call($gen());
        $log[] = 'waiter: no exception';
    } catch (RuntimeException $e) {
        $log[] = 'waiter: ' . $e->getMessage();
    }
    echo "$name: ", implode(', ', $log), "\n";
}
?>
--EXPECT--
await_all: side started, trigger started, side cancelled, trigger cancelled, waiter: iterator failed
await_all_or_fail: side started, trigger started, side cancelled, trigger cancelled, waiter: iterator failed
await_any_or_fail: side started, trigger started, side cancelled, trigger cancelled, waiter: iterator failed
await_first_success: side started, trigger started, side cancelled, trigger cancelled, waiter: iterator failed
await_any_of: side started, trigger started, side cancelled, trigger cancelled, waiter: iterator failed
await_any_of_or_fail: side started, trigger started, side cancelled, trigger cancelled, waiter: iterator failed
