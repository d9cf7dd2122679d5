--TEST--
virtual_time(): arguments and result, the task's exception, leftovers cancelled (their finally on virtual time), nested bubbles, a bubble inside a coroutine beside real time, a bubble deadlock, argument errors
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await, delay};
use function Async\Testing\virtual_time;

var_dump(virtual_time(fn(int $a, int $b) => $a + $b, 2, 3));
var_dump(virtual_time(fn(...$xs) => $xs, b: 2, a: 1));

try {
    virtual_time(function () { delay(1000); throw new DomainException('from the bubble'); });
} catch (DomainException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

/* what the task leaves running is cancelled when it returns; its finally still runs on the bubble's clock */
$log = [];
virtual_time(function () use (&$log) {
    $t0 = hrtime(true);
    spawn(function () use (&$log, $t0) {
        try {
            delay(60000);
            $log[] = 'never';
        } catch (Async\AsyncCancellation $e) {
            $log[] = 'cancelled at ' . intdiv(hrtime(true) - $t0, 1000000) . ': ' . $e->getMessage();
            delay(500);
            $log[] = 'cleanup done at ' . intdiv(hrtime(true) - $t0, 1000000);
        }
    });
    delay(10);
});
echo implode("\n", $log), "\n";

/* nested: the inner clock starts at the outer's now and goes its own way */
echo virtual_time(function () {
    $o0 = hrtime(true);
    delay(100);
    $inner = virtual_time(function () use ($o0) {
        $start = intdiv(hrtime(true) - $o0, 1000000);
        $t = spawn(fn() => delay(700));
        delay(500);
        await($t);
        return "inner began at outer+$start, took " . intdiv(hrtime(true) - $o0, 1000000) - $start;
    });
    delay(100);
    return "$inner; outer took " . intdiv(hrtime(true) - $o0, 1000000);
}), "\n";

/* in a coroutine, beside a coroutine on real time */
$real = spawn(function () { $t = hrtime(true); delay(30); return (hrtime(true) - $t) / 1e6; });
$bubble = spawn(fn() => virtual_time(function () { $t = time(); delay(86400 * 1000); return time() - $t; }));
var_dump(await($bubble));
var_dump(await($real) >= 29);

/* a bubble whose coroutines wait on nothing that can happen */
try {
    virtual_time(function () {
        $ch = new Channel();
        spawn(fn() => $ch->recv());
        $ch->recv();
    });
} catch (Async\DeadlockError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
echo "after the deadlock\n";

try {
    virtual_time('no such function');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    virtual_time();
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
int(5)
array(2) {
  ["b"]=>
  int(2)
  ["a"]=>
  int(1)
}
DomainException: from the bubble
cancelled at 10: Cancellation of the coroutines left running when virtual_time() returned
cleanup done at 510
inner began at outer+100, took 700; outer took 200
int(86400)
bool(true)
Async\DeadlockError: Deadlock detected in virtual_time(): every coroutine of the bubble waits, and no timer is pending
after the deadlock
Async\Testing\virtual_time(): Argument #1 ($task) must be a valid callback, function "no such function" not found or invalid function name
Async\Testing\virtual_time() expects at least 1 argument, 0 given
