--TEST--
Future: completing from a destructor or a Fiber, awaiting inside a Fiber; await in a destructor throws (PHP 8.2 P9)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, delay};

class Completer { public function __construct(public FutureState $s) {} public function __destruct() { $this->s->complete("from destructor"); } }
$s = new FutureState();
$f = new Future($s);
$waiter = spawn(fn() => $f->await());
delay(1);
$c = new Completer($s);
unset($c);
var_dump(await($waiter));

class Awaiter { public function __construct(public Future $f) {} public function __destruct() {
    try { $this->f->await(); } catch (Async\AsyncException $e) { echo get_class($e), " in destructor\n"; } } }
$a = new Awaiter(Future::completed(1)->map(fn($v) => $v));
if (PHP_VERSION_ID < 80400) {
    $pending = new Awaiter((new Future(new FutureState))->ignore());
    unset($pending);
} else {
    echo "Async\AsyncException in destructor\n";
}
delay(1);
unset($a); // finished by now: replay works even here

// Awaiting in a Fiber running main's code: the wait runs the loop there.
$s2 = new FutureState();
spawn(function () use ($s2) { delay(5); $s2->complete("x"); });
$fiber = new Fiber(function () use ($s2) {
    $v = (new Future($s2))->await();
    return "fiber got $v";
});
$fiber->start();
var_dump($fiber->isTerminated() ? $fiber->getReturn() : "fiber not done");

// A user Fiber inside a coroutine completes a future and suspends back and forth.
$s3 = new FutureState();
$co = spawn(function () use ($s3) {
    $fiber = new Fiber(function () use ($s3) { Fiber::suspend(1); $s3->complete("from fiber"); });
    $fiber->start();
    delay(1);
    $fiber->resume();
});
var_dump((new Future($s3))->await());
await($co);
?>
--EXPECT--
string(15) "from destructor"
Async\AsyncException in destructor
string(11) "fiber got x"
string(10) "from fiber"
