--TEST--
await_*: a token that has already fired throws at once, without subscribing or running anything
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState};
use function Async\{await_any_or_fail, await_first_success, await_all_or_fail, await_all, await_any_of_or_fail, await_any_of, await, spawn, delay, timeout};

// A timeout that already fired (it fired while used as a token before).
$fired = timeout(5);
try { await(new Future(new FutureState()), $fired); } catch (Async\OperationCanceledException $e) { echo "armed once: ", describe($e), "\n"; }

$tokens = [
    'fired timeout' => $fired,
    'failed future' => Future::failed(new LogicException('token error')),
    'completed future' => Future::completed('whatever'),
    'finished coroutine' => spawn(fn() => 1),
];
await($tokens['finished coroutine']);
$ready = spawn(fn() => 'ready');
await($ready);

$calls = [
    'await_any_or_fail' => fn($t, $c) => await_any_or_fail($t, $c),
    'await_first_success' => fn($t, $c) => await_first_success($t, $c),
    'await_all_or_fail' => fn($t, $c) => await_all_or_fail($t, $c),
    'await_all' => fn($t, $c) => await_all($t, $c),
    'await_any_of_or_fail' => fn($t, $c) => await_any_of_or_fail(1, $t, $c),
    'await_any_of' => fn($t, $c) => await_any_of(1, $t, $c),
];
foreach ($tokens as $label => $token) {
    $lines = [];
    foreach ($calls as $name => $call) {
        $ran = false;
        $bystander = spawn(function () use (&$ran) { $ran = true; });
        $state = new FutureState();
        try {
            // Even already-completed triggers do not win over a fired token.
            $call([$ready, new Future($state)], $token);
            $lines[] = "$name: no exception";
        } catch (Async\OperationCanceledException $e) {
            $lines[] = describe($e) . ($ran ? ' (suspended!)' : '') . (count($state->getAwaitingInfo()) ? ' (subscribed!)' : '');
        }
        $state->ignore();
        await($bystander);
    }
    echo "$label: ", implode("\n  ", array_unique($lines)), "\n";
}
?>
--EXPECT--
armed once: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 5 milliseconds)
fired timeout: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 5 milliseconds)
failed future: Async\OperationCanceledException(Operation has been cancelled) <- LogicException(token error)
completed future: Async\OperationCanceledException(Operation has been cancelled)
finished coroutine: Async\OperationCanceledException(Operation has been cancelled)
