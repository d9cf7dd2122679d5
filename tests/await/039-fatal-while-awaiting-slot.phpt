--TEST--
await(): a fatal error while coroutines await another through its first-awaiter slot ends the request cleanly (the awaiters' wakers are cleaned with the slot still held, then the target goes)
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, suspend};

register_shutdown_function(function () {
    echo "shutdown function\n";
});
$never = new FutureState();
$target = spawn(function () use ($never) { await(new Future($never)); return 'never'; });
$a = spawn(function () use ($target) { await($target); echo "a: not reached\n"; });
$b = spawn(function () use ($target) { await($target); echo "b: not reached\n"; });
$chain = spawn(fn() => await(spawn(fn() => await($a))));
suspend();
suspend();
echo "awaiting: ", count($a->getAwaitingInfo()), " ", count($b->getAwaitingInfo()), "\n";
trigger_error('boom', E_USER_ERROR);
?>
--EXPECTF--
awaiting: 1 1

Fatal error: boom in %s on line %d
shutdown function
