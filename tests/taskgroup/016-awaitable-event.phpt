--TEST--
TaskGroup as an Awaitable: its event fires once, when the group is closed and every task is done, with the results array; a completed group replays it
--EXTENSIONS--
async_abi_test
--FILE--
<?php
use Async\{TaskGroup, TaskSet};
use function Async\{delay, spawn, await};

// async_abi_test_wait_awaitable() waits on any Awaitable's event through the C ABI only, as the
// await_*() family does, and returns [result, exception].
$g = new TaskGroup();
$g->spawnWithKey("a", function () { delay(10); return "A"; });
$g->spawnWithKey("b", function () { delay(1); throw new RuntimeException("b failed"); });
$closer = spawn(function () use ($g) {
    delay(20);
    echo "closing\n";
    $g->close();
});
$waiters = [];
for ($i = 0; $i < 2; $i++) {
    $waiters[] = spawn(function () use ($g, $i) { [$r, $e] = async_abi_test_wait_awaitable($g); echo "waiter $i: ", json_encode($r), " ", var_export($e, true), "\n"; });
}
[$result, $error] = async_abi_test_wait_awaitable($g);
echo "main: ", json_encode($result), " ", var_export($error, true), "\n";
foreach ($waiters as $w) { await($w); }
// Replay: the same array, at once.
var_dump(async_abi_test_wait_awaitable($g)[0] === $result);
$g->suppressErrors();

// A group that is closed while empty is complete at once.
$e = new TaskSet();
$e->close();
var_dump(async_abi_test_wait_awaitable($e));

// A cancelled group fires too: the cancelled tasks have no result.
$c = new TaskGroup();
$c->spawnWithKey("done", fn() => "kept");
$c->spawnWithKey("long", fn() => delay(1000));
delay(1);
spawn(fn() => $c->cancel());
var_dump(async_abi_test_wait_awaitable($c)[0]);
?>
--EXPECT--
closing
main: {"a":"A"} NULL
waiter 0: {"a":"A"} NULL
waiter 1: {"a":"A"} NULL
bool(true)
array(2) {
  [0]=>
  array(0) {
  }
  [1]=>
  NULL
}
array(1) {
  ["done"]=>
  string(4) "kept"
}
