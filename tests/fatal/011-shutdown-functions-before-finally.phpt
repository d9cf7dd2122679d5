--TEST--
Fatal error in a coroutine: the register_shutdown_function() callbacks run first (those registered before the launch, after it, and inside a coroutine), then the other coroutines are cancelled and the scopes' finally handlers run (issue #39 item 3)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
async.debug_deadlock=0
display_errors=1
log_errors=0
--FILE--
<?php
use Async\Scope;
use function Async\{spawn, await, suspend};

register_shutdown_function(function () { echo "shutdown function registered before the launch\n"; });
$scope = new Scope();
$scope->finally(function () { echo "scope finally\n"; });
$other = $scope->spawn(function () {
    try {
        suspend();
        suspend();
    } finally {
        echo "the other coroutine unwinds\n";
    }
});
$other->finally(function () { echo "the other coroutine's finally handler\n"; });
register_shutdown_function(function () { echo "shutdown function registered after the launch\n"; });
$failing = $scope->spawn(function () {
    register_shutdown_function(function () { echo "shutdown function registered in a coroutine\n"; });
    trigger_error('boom', E_USER_ERROR);
});
await($failing);
echo "not reached\n";
?>
--EXPECTF--
Fatal error: boom in %s on line %d
shutdown function registered before the launch
shutdown function registered after the launch
shutdown function registered in a coroutine
the other coroutine unwinds
the other coroutine's finally handler
scope finally
