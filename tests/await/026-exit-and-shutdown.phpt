--TEST--
await_*: exit() in a trigger or in the generator being consumed, an unhandled error elsewhere, and the script ending while a helper is suspended
--SKIPIF--
<?php require __DIR__ . '/../badinput/child.inc'; badinput_skip(); ?>
--FILE--
<?php
require __DIR__ . '/../badinput/child.inc';

foreach ([
    'exit() in a trigger' => '
        Async\await_all([Async\spawn(function () { Async\delay(2); exit(3); }), Async\spawn(fn() => Async\delay(1000))]);
        echo "[not reached]\n";',
    'exit() in the generator' => '
        $gen = (function () { yield Async\spawn(fn() => 1); Async\delay(2); exit(4); })();
        Async\await_all($gen);
        echo "[not reached]\n";',
    'unhandled error elsewhere while waiting on a generator' => '
        Async\spawn(function () { Async\delay(2); throw new Exception("boom elsewhere"); });
        $gen = (function () { yield Async\spawn(fn() => 1); Async\delay(1000); yield Async\spawn(fn() => 2); })();
        try { Async\await_all($gen); } catch (Throwable $e) { echo "[main: ", get_class($e), ": ", $e->getMessage(), "]\n"; }
        echo "[main continues]\n";',
    'script ends while a coroutine waits on a suspended generator' => '
        Async\spawn(function () {
            $gen = (function () { yield "a" => Async\spawn(fn() => 1); Async\delay(5); yield "b" => Async\spawn(fn() => 2); })();
            echo "[coroutine: ", json_encode(Async\await_all($gen)[0]), "]\n";
        });
        echo "[end of script]\n";',
    'await_all on a generator during a graceful shutdown' => '
        Async\spawn(function () {
            try { Async\delay(1000); } catch (Async\AsyncCancellation $e) {
                try { Async\await_all((function () { yield Async\spawn(fn() => 1); })()); }
                catch (Throwable $e) { echo "[await_all: ", get_class($e), ": ", $e->getMessage(), "]\n"; }
            }
        });
        Async\spawn(function () { Async\delay(2); throw new Exception("starts the shutdown"); });
        echo "[end of script]\n";',
] as $label => $code) {
    [$out, $rc] = run_child("<?php\n$code\n", 10);
    echo "== $label (exit $rc)\n$out";
}
?>
--EXPECTF--
== exit() in a trigger (exit 3)
== exit() in the generator (exit 4)
== unhandled error elsewhere while waiting on a generator (exit 0)
[main: Exception: boom elsewhere]
[main continues]
== script ends while a coroutine waits on a suspended generator (exit 0)
[end of script]
[coroutine: {"a":1,"b":2}]
== await_all on a generator during a graceful shutdown (exit 255)
[end of script]
[await_all: Async\AsyncCancellation: Graceful shutdown]

Fatal error: Uncaught Exception: starts the shutdown in %s:%d
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in %s on line %d
