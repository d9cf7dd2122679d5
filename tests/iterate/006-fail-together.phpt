--TEST--
iterate(): an unhandled error of a coroutine spawned inside a callback fails its scope together: the iteration is cancelled, the error goes up the scope tree, iterate() throws the cancellation
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{AsyncCancellation, Scope};
use function Async\{iterate, delay, spawn, await};
$started = 0;
$scope = new Scope();
$scope->setChildScopeExceptionHandler(function ($s, $c, $e) { echo "handler: ", $e->getMessage(), "\n"; });
$co = $scope->spawn(function () {
    try {
        iterate([1, 2], function ($v) {
            // fails once both callbacks are suspended (not on a timer: a loaded machine is slow to start them)
            if ($v == 1) { spawn(function () { while ($GLOBALS['started'] < 2) { Async\suspend(); } throw new RuntimeException("inner failure"); }); }
            $GLOBALS['started']++;
            try { delay(5000); } catch (AsyncCancellation $e) { echo "callback $v: ", $e->getMessage(), "\n"; throw $e; }
        });
    } catch (Throwable $e) { echo "iterate threw ", get_class($e), ": ", $e->getMessage(), "\n"; }
    return "caller continues";
});
var_dump(await($co));
?>
--EXPECT--
handler: inner failure
callback 1: Scope was cancelled
callback 2: Scope was cancelled
iterate threw Async\AsyncCancellation: Scope was cancelled
string(16) "caller continues"
