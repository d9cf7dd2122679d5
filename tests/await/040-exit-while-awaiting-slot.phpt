--TEST--
await(): exit() while a coroutine awaits another through its first-awaiter slot: the request ends as with any wait (finally blocks run in spawn order), nothing left subscribed or leaked
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, suspend};

$never = new FutureState();
$target = spawn(function () use ($never) {
    try { await(new Future($never)); } finally { echo "target's finally\n"; }
});
$a = spawn(function () use ($target) {
    try { await($target); } finally { echo "a's finally\n"; }
});
suspend();
spawn(function () { echo "exit from a coroutine\n"; exit(0); });
await($a);
echo "not reached\n";
?>
--EXPECT--
exit from a coroutine
target's finally
a's finally
