--TEST--
Every Coroutine method on the main coroutine; awaiting it from a coroutine, from itself; finally() on it runs when the script's main flow ends
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/methods.inc';
use function Async\{spawn, await, suspend, delay, current_coroutine, get_coroutines};

try_call("current_coroutine() before launch", fn() => current_coroutine());
delay(0); // launches the scheduler: the script becomes the main coroutine
$main = current_coroutine();
echo "main:\n";
call_all_getters($main);
try_call("main is in get_coroutines()", fn() => in_array($main, get_coroutines(), true));
try_call("getContext is coroutine_context()", fn() => $main->getContext() === Async\coroutine_context());
$finallyRan = "no";
try_call("finally on main", fn() => $main->finally(function ($co) use ($main, &$finallyRan) {
    $GLOBALS['finallyRan'] = "yes, same=" . var_export($co === $main, true); // fn() captured a copy
}));
$token = spawn(fn() => delay(5));
try_call("await itself with a token", fn() => await($main, $token));
$watcher = spawn(function () use ($main) {
    $r = await($main);
    echo "[watcher: main completed, result=", var_export($r, true), ", isCompleted=", var_export($main->isCompleted(), true), "]\n";
});
$inspector = spawn(function () use ($main) {
    echo "from another coroutine while main waits:\n";
    call_all_getters($main);
});
delay(5);
register_shutdown_function(function () use ($main, $watcher, &$finallyRan) {
    echo "shutdown: main isCompleted=", var_export($main->isCompleted(), true),
        ", watcher isCompleted=", var_export($watcher->isCompleted(), true),
        ", main's finally handler ran: $finallyRan\n";
});
echo "end of script\n";
?>
--EXPECTF--
  current_coroutine() before launch threw Async\AsyncException: The current coroutine is not defined
main:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: NULL
  getSpawnFileAndLine: [015-methods-main-coroutine.php, 6]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [015-methods-main-coroutine.php, 6]
  getSuspendLocation:   getSuspendLocation threw Error: Call to undefined function ctype_digit()
  isStarted: true
  isQueued: false
  isRunning: true
  isSuspended: false
  isCancelled: false
  isCancellationRequested: false
  isCompleted: false
  getAwaitingInfo: []
  getTrace: NULL
  main is in get_coroutines(): true
  getContext is coroutine_context(): true
  finally on main: NULL
  await itself with a token threw Async\OperationCanceledException: Operation has been cancelled
from another coroutine while main waits:
  getId: 'object id'
  asHiPriority: itself
  getContext: Async\Context
  getResult: NULL
  getException: NULL
  getSpawnFileAndLine: [015-methods-main-coroutine.php, 6]
  getSpawnLocation:   getSpawnLocation threw Error: Call to undefined function ctype_digit()
  getSuspendFileAndLine: [015-methods-main-coroutine.php, 26]
  getSuspendLocation:   getSuspendLocation threw Error: Call to undefined function ctype_digit()
  isStarted: true
  isQueued: false
  isRunning: true
  isSuspended: true
  isCancelled: false
  isCancellationRequested: false
  isCompleted: false
  getAwaitingInfo: [Timer(5 ms)]
  getTrace: NULL
end of script
[watcher: main completed, result=NULL, isCompleted=true]
shutdown: main isCompleted=true, watcher isCompleted=true, main's finally handler ran: yes, same=true
