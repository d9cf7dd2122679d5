--TEST--
await_*: one wait over heterogeneous triggers: coroutines, futures, timeouts and channels
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState, Channel};
use function Async\{await_all, await_any_or_fail, await_first_success, await_any_of, await, spawn, delay, suspend, timeout};

// A timeout is a trigger that fails with TimeoutException: it wins the race against a slower trigger.
$state = new FutureState();
$t0 = hrtime(true);
try {
    await_any_or_fail(['slow' => new Future($state), 'deadline' => timeout(20)]);
} catch (Async\TimeoutException $e) {
    $ms = (hrtime(true) - $t0) / 1e6;
    echo "race: ", describe($e), $ms >= 19 ? '' : " (too early: $ms ms)", "\n";
}
$state->complete('late'); // nobody waits for it any more

// ... and loses against a faster one (its timer is then disarmed: the loop does not wait for it).
$t0 = hrtime(true);
var_dump(await_any_or_fail(['fast' => spawn(fn() => 'fast'), 'deadline' => timeout(5000)]));
echo "disarmed: ", (hrtime(true) - $t0) / 1e6 < 4000 ? 'yes' : 'no', "\n";

// Everything in one await_all.
$channel = new Channel(1);
$futureState = new FutureState();
spawn(function () use ($channel, $futureState) {
    suspend();
    $futureState->complete('future value');
    suspend();
    $channel->close();
});
[$results, $errors] = await_all([
    'coroutine' => spawn(fn() => 'coroutine value'),
    'failing coroutine' => spawn(fn() => throw new RuntimeException('coroutine error')),
    'future' => new Future($futureState),
    'completed future' => Future::completed('completed value'),
    'failed future' => Future::failed(new LogicException('future error')),
    'timeout' => timeout(10),
    'channel' => $channel,
    'nothing' => null,
]);
var_dump($results);
foreach ($errors as $key => $e) {
    echo "$key: ", describe($e), "\n";
}

// await_first_success: a timeout failing first does not stop the wait.
[$first, $errors] = await_first_success(['t' => timeout(1), 'c' => spawn(function () { delay(30); return 'after the timeout'; })]);
echo $first, " / ", implode(', ', array_map('describe', $errors)), "\n";

// await_any_of over pending futures and a completed one (replayed first).
$f = ordered_futures(['f1' => 'F1', 'f2' => 'F2'], ['f2', 'f1']);
echo json_encode(await_any_of(2, $f + ['done' => spawn(fn() => 'D')], null, false)[0]), "\n";
await_all($f);
?>
--EXPECT--
race: Async\TimeoutException(Timeout occurred after 20 milliseconds)
string(4) "fast"
disarmed: yes
array(3) {
  ["coroutine"]=>
  string(15) "coroutine value"
  ["future"]=>
  string(12) "future value"
  ["completed future"]=>
  string(15) "completed value"
}
failing coroutine: RuntimeException(coroutine error)
failed future: LogicException(future error)
timeout: Async\TimeoutException(Timeout occurred after 10 milliseconds)
channel: Async\ChannelException(Channel is closed)
after the timeout / Async\TimeoutException(Timeout occurred after 1 milliseconds)
{"done":"D","f2":"F2"}
