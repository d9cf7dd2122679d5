--TEST--
Fatal error: one raised on a worker between two bodies (a destructor run by a coroutine's finish) ends the request as PHP does, shutdown functions included (it used to end the process without them: no bailout point was set there)
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
use function Async\{spawn, await, current_coroutine};

class LoudCancellation extends Async\AsyncCancellation {
    public function __destruct() {
        echo "destructor\n";
        trigger_error('boom in a destructor', E_USER_ERROR);
    }
}
register_shutdown_function(function () {
    echo "shutdown function\n";
});
var_dump(await(spawn(fn() => 1)));
$c = spawn(function () {
    // A cancellation requested while it runs and never delivered (it does not suspend again):
    // the finish drops it, on the worker, after the body.
    current_coroutine()->cancel(new LoudCancellation('never delivered'));
    return 2;
});
var_dump(await($c));
echo "not reached\n";
?>
--EXPECTF--
int(1)
destructor

Fatal error: boom in a destructor in %s on line %d
shutdown function
