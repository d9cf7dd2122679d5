--TEST--
Awaiting yourself (in the body, inside protect(), with a token) and await cycles end with a clear deadlock or token error, never a hang; in a finally handler (after completion) it returns the result
--SKIPIF--
<?php require __DIR__ . '/child.inc'; badinput_skip(); ?>
--FILE--
<?php
require __DIR__ . '/child.inc';
use function Async\{spawn, await, delay, current_coroutine};

// With a token: the token wins, the coroutine goes on.
var_dump(await(spawn(function () {
    try {
        await(current_coroutine(), spawn(fn() => delay(2)));
    } catch (Async\OperationCanceledException $e) {
        return "token: " . $e->getMessage();
    }
})));

foreach ([
    'self-await in the body' => '
        $c = Async\spawn(function () {
            try { Async\await(Async\current_coroutine()); } catch (Throwable $e) { echo "[body: ", get_class($e), ": ", $e->getMessage(), "]\n"; }
            return "body returned";
        });
        try { var_dump(Async\await($c)); } catch (Throwable $e) { echo "[main: ", get_class($e), ": ", $e->getMessage(), "]\n"; }',
    'self-await inside protect()' => '
        $c = Async\spawn(fn() => Async\protect(function () {
            try { Async\await(Async\current_coroutine()); } catch (Throwable $e) { echo "[protect: ", get_class($e), ": ", $e->getMessage(), "]\n"; }
            return "protect returned";
        }));
        try { var_dump(Async\await($c)); } catch (Throwable $e) { echo "[main: ", get_class($e), ": ", $e->getMessage(), "]\n"; }',
    'self-await in a finally handler' => '
        $c = Async\spawn(fn() => "r");
        $c->finally(function ($co) {
            try { Async\await($co); echo "[handler: await returned]\n"; } catch (Throwable $e) { echo "[handler: ", get_class($e), ": ", $e->getMessage(), "]\n"; }
        });
        try { var_dump(Async\await($c)); } catch (Throwable $e) { echo "[main: ", get_class($e), ": ", $e->getMessage(), "]\n"; }',
    'two coroutines awaiting each other' => '
        $a = $b = null;
        $a = Async\spawn(function () use (&$b) { Async\delay(1); try { Async\await($b); } catch (Throwable $e) { echo "[a: ", $e->getMessage(), "]\n"; } });
        $b = Async\spawn(function () use (&$a) { try { Async\await($a); } catch (Throwable $e) { echo "[b: ", $e->getMessage(), "]\n"; } });
        echo "[end of script]\n";',
    'main awaits a coroutine that awaits main' => '
        Async\delay(0);
        $main = Async\current_coroutine();
        $c = Async\spawn(function () use ($main) { try { Async\await($main); } catch (Throwable $e) { echo "[c: ", $e->getMessage(), "]\n"; throw $e; } });
        try { Async\await($c); } catch (Throwable $e) { echo "[main: ", get_class($e), ": ", $e->getMessage(), "]\n"; }
        echo "[main continues]\n";',
    'main awaits itself' => '
        Async\delay(0);
        try { Async\await(Async\current_coroutine()); } catch (Throwable $e) { echo "[main: ", get_class($e), ": ", $e->getMessage(), "]\n"; }
        var_dump(Async\await(Async\spawn(fn() => "main recovered")));',
] as $label => $code) {
    [$out, $rc] = run_child("<?php\n$code\n", 5);
    echo "== $label (exit $rc)\n$out";
}
?>
--EXPECTF--
string(35) "token: Operation has been cancelled"
== self-await in the body (exit 255)
[body: Async\AsyncCancellation: Deadlock detected]
[main: Async\AsyncCancellation: Deadlock detected]

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s.php:7
Stack trace:
#0 %s.php(7): Async\await()
#1 {main}
  thrown in %s.php on line 7
== self-await inside protect() (exit 255)
[protect: Async\AsyncCancellation: Deadlock detected]
[main: Async\AsyncCancellation: Deadlock detected]

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s.php:7
Stack trace:
#0 %s.php(7): Async\await()
#1 {main}
  thrown in %s.php on line 7
== self-await in a finally handler (exit 0)
[handler: await returned]
string(1) "r"
== two coroutines awaiting each other (exit 255)
[end of script]
[a: Deadlock detected]
[b: Deadlock detected]

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s.php:4
Stack trace:
#0 {main}
  thrown in %s.php on line 4
== main awaits a coroutine that awaits main (exit 255)
[c: Deadlock detected]
[main: Async\AsyncCancellation: Deadlock detected]
[main continues]

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s.php:6
Stack trace:
#0 %s.php(6): Async\await()
#1 {main}
  thrown in %s.php on line 6
== main awaits itself (exit 255)
[main: Async\AsyncCancellation: Deadlock detected]
string(14) "main recovered"

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s.php:4
Stack trace:
#0 %s.php(4): Async\await()
#1 {main}
  thrown in %s.php on line 4
