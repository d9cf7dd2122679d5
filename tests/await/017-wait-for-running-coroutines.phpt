--TEST--
await_*: "cancel on exit" (spec §8.4): await_first_success, await_all_or_fail, await_all and await_any_of wait for Coroutine triggers still running, without cancelling them; await_any_or_fail and await_any_of_or_fail return at once
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState};
use function Async\{await_any_or_fail, await_first_success, await_all_or_fail, await_all, await_any_of_or_fail, await_any_of, await, spawn, delay, timeout, current_coroutine};

function slow(string $v) { return spawn(function () use ($v) { delay(30); return $v; }); }
function report(string $name, Async\Coroutine $slow, float $t0) {
    $ms = (hrtime(true) - $t0) / 1e6;
    echo "$name: slow ", $slow->isCompleted() ? 'completed (' . $slow->getResult() . ')' : 'still running',
        ', cancelled: ', var_export($slow->isCancelled(), true), ", waited: ", $ms >= 29 ? 'yes' : 'no', "\n";
}

$t0 = hrtime(true);
try { await_all_or_fail(['fail' => spawn(fn() => throw new RuntimeException('fast failure')), 'slow' => $slow = slow('S1')]); }
catch (RuntimeException $e) { echo "(", $e->getMessage(), ") "; }
report('await_all_or_fail', $slow, $t0);

$t0 = hrtime(true);
[$first] = await_first_success(['ok' => spawn(fn() => 'fast'), 'slow' => $slow = slow('S2')]);
echo "($first) ";
report('await_first_success', $slow, $t0);

$t0 = hrtime(true);
[$r] = await_any_of(1, ['ok' => spawn(fn() => 'fast'), 'slow' => $slow = slow('S3')]);
echo "(", json_encode($r), ") ";
report('await_any_of', $slow, $t0);

$t0 = hrtime(true);
echo "(", await_any_or_fail(['ok' => spawn(fn() => 'fast'), 'slow' => $slow = slow('S4')]), ") ";
report('await_any_or_fail', $slow, $t0);
await($slow);

$t0 = hrtime(true);
echo "(", json_encode(await_any_of_or_fail(1, ['ok' => spawn(fn() => 'fast'), 'slow' => $slow = slow('S5')])), ") ";
report('await_any_of_or_fail', $slow, $t0);
await($slow);

// Only coroutines are waited for: a pending Future is not.
$never = new FutureState();
[$first] = await_first_success([spawn(fn() => 'coroutine'), new Future($never)]);
echo "future left pending: $first\n";
$never->ignore();

// When the token fires the wait ends there: no waiting for the rest.
$t0 = hrtime(true);
try { await_all(['slow' => $slow = slow('S6')], timeout(5)); } catch (Async\OperationCanceledException $e) { echo "(token) "; }
echo "await_all with a token: slow ", $slow->isCompleted() ? 'completed' : 'still running', "\n";
await($slow);
// ... also while waiting for the running ones.
try {
    await_all_or_fail(['fail' => spawn(fn() => throw new LogicException('x')), 'slow' => $slow = slow('S7')], timeout(5));
} catch (Throwable $e) { echo "token during the wait for running coroutines: ", describe($e), "\n"; }
await($slow);

// The errors of coroutines waited for afterwards count as observed: no unhandled error below,
// though the handles are dropped.
try {
    await_all_or_fail([spawn(fn() => throw new RuntimeException('first')), spawn(function () { delay(5); throw new RuntimeException('second, observed'); })]);
} catch (RuntimeException $e) { echo "thrown: ", $e->getMessage(), "\n"; }

// The waiter itself in the list is not waited for (it could never finish).
echo await(spawn(function () {
    try {
        await_all_or_fail([current_coroutine(), spawn(fn() => throw new DomainException('not a deadlock'))]);
    } catch (DomainException $e) { return "self in the list: " . $e->getMessage(); }
})), "\n";
echo "end\n";
?>
--EXPECT--
(fast failure) await_all_or_fail: slow completed (S1), cancelled: false, waited: yes
(fast) await_first_success: slow completed (S2), cancelled: false, waited: yes
({"ok":"fast"}) await_any_of: slow completed (S3), cancelled: false, waited: yes
(fast) await_any_or_fail: slow still running, cancelled: false, waited: no
({"ok":"fast"}) await_any_of_or_fail: slow still running, cancelled: false, waited: no
future left pending: coroutine
(token) await_all with a token: slow still running
token during the wait for running coroutines: Async\OperationCanceledException(Operation has been cancelled) <- Async\TimeoutException(Timeout occurred after 5 milliseconds)
thrown: first
self in the list: not a deadlock
end
