--TEST--
iterate(): a cancelled caller cancels everything it started; nested iterations; inside a destructor it throws on PHP 8.2/8.3 and waits for its callbacks from PHP 8.4; inside a scope's coroutine
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{AsyncCancellation, Scope};
use function Async\{iterate, delay, spawn, await};

// The coroutine running iterate() is cancelled while callbacks run: they are cancelled too, and
// iterate() throws the caller's cancellation.
$log = [];
$caller = spawn(function () use (&$log) {
    try {
        iterate([1, 2, 3, 4], function ($v) use (&$log) {
            spawn(function () use ($v, &$log) { $GLOBALS['started']++; try { delay(1000); } catch (AsyncCancellation $e) { $log[] = "spawned $v cancelled"; } });
            $GLOBALS['started']++;
            try { delay(1000); } catch (AsyncCancellation $e) { $log[] = "callback $v cancelled"; throw $e; }
        }, 2);
    } catch (AsyncCancellation $e) {
        $log[] = "iterate threw: " . $e->getMessage();
        throw $e;
    }
});
// until both callbacks and what they spawned are suspended (a loaded machine may take longer than
// any fixed delay to start them all)
$started = 0;
while ($started < 4) { Async\suspend(); }
$caller->cancel(new AsyncCancellation("caller cancelled"));
try { await($caller); } catch (AsyncCancellation $e) { echo "caller: ", $e->getMessage(), "\n"; }
delay(1);
sort($log);
echo implode("\n", $log), "\n";

// Nested: an iteration inside a callback.
$pairs = [];
iterate(["x", "y"], function ($outer) use (&$pairs) {
    iterate([1, 2], function ($inner) use ($outer, &$pairs) { delay(1); $pairs[] = "$outer$inner"; }, 1);
});
sort($pairs);
echo implode(" ", $pairs), "\n";

// In a destructor PHP 8.2 and 8.3 cannot switch coroutines: iterate() refuses. From PHP 8.4 the
// destructor's coroutine waits while the callbacks (which suspend themselves) run.
class D {
    function __destruct() {
        $done = [];
        try {
            iterate([1, 2], function ($v) use (&$done) { delay(1); $done[] = $v; });
            sort($done);
            echo PHP_VERSION_ID >= 80400 ? "8.4+: iterate() waited for its callbacks: " . implode(" ", $done) : "8.2-8.3: BAD, iterate() returned", "\n";
        } catch (Async\AsyncException $e) {
            echo PHP_VERSION_ID >= 80400 ? "8.4+: BAD, " : "8.2-8.3: ", $e->getMessage(), "\n";
        }
    }
}
$c = spawn(function () { $d = new D; unset($d); });
await($c);

// In a coroutine of a user scope: the callbacks run in a child of that scope; cancelling it stops them.
$scope = new Scope();
$inScope = $scope->spawn(function () {
    iterate([1, 2], function ($v) { $GLOBALS['started']++; try { delay(1000); } catch (AsyncCancellation $e) { echo "callback $v: ", $e->getMessage(), "\n"; throw $e; } });
});
$started = 0;
while ($started < 2) { Async\suspend(); }
$scope->cancel();
try { await($inScope); } catch (AsyncCancellation $e) { echo "scope coroutine: ", $e->getMessage(), "\n"; }
?>
--EXPECTF--
caller: caller cancelled
callback 1 cancelled
callback 2 cancelled
iterate threw: caller cancelled
spawned 1 cancelled
spawned 2 cancelled
x1 x2 y1 y2
%r(8\.2-8\.3: Cannot iterate inside a destructor: PHP 8\.[23]\.\S+ forbids switching coroutines there|8\.4\+: iterate\(\) waited for its callbacks: 1 2)%r
callback 1: Scope was cancelled
callback 2: Scope was cancelled
scope coroutine: Scope was cancelled
