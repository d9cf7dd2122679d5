--TEST--
Exceptions made for another coroutine (cancel(), a timeout fired by the scheduler, a deadlock) keep their frames but no argument values
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
zend.exception_ignore_args=0
--FILE--
<?php
use function Async\{spawn, await, delay, timeout};
use Async\{Future, FutureState};

function describe(Throwable $e): string {
    $args = false;
    $functions = [];
    for ($x = $e; $x !== null; $x = $x->getPrevious()) {
        foreach ($x->getTrace() as $frame) {
            $args = $args || array_key_exists('args', $frame);
            $functions[] = $frame['function'];
        }
    }
    return get_class($e) . ": " . $e->getMessage() . " [" . implode(",", array_unique($functions)) . "]"
        . ($args ? " with argument values" : "");
}

// A cancellation made by cancel() in a frame whose argument is the cancelled coroutine.
function cancel_and_await($c) {
    $c->cancel();
    try { await($c); } catch (Throwable $e) { echo "cancel: ", describe($e), "\n"; }
}
$c = spawn(fn() => delay(10000));
delay(1);
cancel_and_await($c);

// A timeout fired by the scheduler while main awaits the coroutine that receives it.
$state = new FutureState();
$future = new Future($state);
$c = spawn(fn() => await($future, timeout(5)));
try { await($c); } catch (Throwable $e) { echo "timeout: ", describe($e), "\n"; }

// A deadlock while main awaits: the coroutine's cancellation is made on main's stack.
$c = spawn(fn() => $future->await());
try { await($c); } catch (Throwable $e) { echo "main: ", describe($e), "\n"; }
try { await($c); } catch (Throwable $e) { echo "coroutine: ", describe($e), "\n"; }

// A user's own exception keeps its argument values, as in stock PHP.
function make($c) { return new Exception("user"); }
echo "user: ", describe(make($c)), "\n";
$state->complete(null);
?>
--EXPECTF--
cancel: Async\AsyncCancellation: Coroutine cancelled [cancel,cancel_and_await]
timeout: Async\OperationCanceledException: Operation has been cancelled [Async\await]
main: Async\AsyncCancellation: Deadlock detected [Async\await]
coroutine: Async\AsyncCancellation: Deadlock detected [Async\await]
user: Exception: user [make] with argument values

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s010-foreign-exceptions-hold-no-arguments.php:35
Stack trace:
#0 %s010-foreign-exceptions-hold-no-arguments.php(35): Async\await()
#1 {main}
  thrown in %s010-foreign-exceptions-hold-no-arguments.php on line 35
