--TEST--
E_USER_ERROR in a coroutine after the main script, in this process (so the memory lanes see the bailout path): the dead coroutine runs nothing more, the others are cancelled, scope finally handlers and the later shutdown functions run
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
use function Async\{spawn, delay};

$scope = new Async\Scope();
$scope->finally(function () { echo "Scope::finally handler\n"; });
$inner = Async\Scope::inherit($scope);
$inner->finally(function () { echo "child Scope::finally handler\n"; });
$waiter = $inner->spawn(function () {
    try {
        delay(10000);
    } finally {
        echo "waiter's finally block\n";
    }
});
$waiter->finally(function () { echo "Coroutine::finally handler\n"; });
$doomed = spawn(function () {
    delay(5);
    trigger_error("user fatal", E_USER_ERROR);
});
/* the coroutine that died runs nothing more: neither its finally blocks nor its handlers */
$doomed->finally(function () { echo "the dead coroutine's finally handler (not expected)\n"; });
register_shutdown_function(function () use ($doomed, $waiter) {
    echo "shutdown function: ", json_encode([$doomed->isCompleted(), $doomed->isCancelled(), $waiter->isCancelled()]), "\n";
});
echo "main ends\n";
?>
--EXPECTF--
main ends

Fatal error: user fatal in %s on line %d
waiter's finally block
Coroutine::finally handler
child Scope::finally handler
Scope::finally handler
shutdown function: [true,true,true]
