--TEST--
getResult() and getException() before, during and after completion
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, current_coroutine};
use Async\AsyncCancellation;

$c = spawn(function () {
    var_dump(current_coroutine()->getResult(), current_coroutine()->getException());
    delay(5);
    return ["ok"];
});
var_dump($c->getResult(), $c->getException());
suspend();
var_dump($c->getResult(), $c->getException());
await($c);
var_dump($c->getResult(), $c->getException());

$e = spawn(function () { throw new RuntimeException("fail"); });
try { await($e); } catch (RuntimeException $ex) {}
var_dump($e->getResult());
$ex = $e->getException();
echo get_class($ex), ": ", $ex->getMessage(), "\n";
var_dump($ex === $e->getException());

$x = spawn(fn() => 1);
$x->cancel();
var_dump($x->getException()); // not completed yet: it completes on the scheduler's next turn
try { await($x); } catch (Async\AsyncCancellation $e) {}
$ex = $x->getException();
echo get_class($ex), ": ", $ex->getMessage(), "\n";
var_dump($x->getResult());

// getException() observes the error: holding the handle and reading it is enough,
// no unhandled-error shutdown happens.
$h = spawn(function () { throw new LogicException("observed via getter"); });
delay(5);
echo $h->getException()->getMessage(), "\n";
unset($h);
delay(5);
echo "still alive\n";

// getResult() of a finished coroutine can be read without await().
$r = spawn(fn() => 99);
delay(1);
var_dump($r->getResult());
?>
--EXPECT--
NULL
NULL
NULL
NULL
NULL
NULL
array(1) {
  [0]=>
  string(2) "ok"
}
NULL
NULL
RuntimeException: fail
bool(true)
NULL
Async\AsyncCancellation: Coroutine cancelled
NULL
observed via getter
still alive
int(99)
