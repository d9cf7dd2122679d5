--TEST--
Fatal error: a body that fails fatally on a worker that already ran many coroutines ends the request as PHP does (the worker's one bailout point catches every body it runs)
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
use function Async\{spawn, await};

register_shutdown_function(function () {
    echo "shutdown function\n";
});
$sum = 0;
for ($i = 1; $i <= 50; $i++) {
    $sum += await(spawn(fn() => $i)); // one worker, reused for each
}
echo "sum: $sum\n";
$waiter = spawn(function () {
    try {
        await(spawn(function () {
            echo "failing\n";
            trigger_error('boom in a body', E_USER_ERROR);
        }));
    } finally {
        echo "waiter: finally, after the shutdown functions (it is cancelled)\n";
    }
});
await($waiter);
echo "not reached\n";
?>
--EXPECTF--
sum: 1275
failing

Fatal error: boom in a body in %s on line %d
shutdown function
waiter: finally, after the shutdown functions (it is cancelled)
