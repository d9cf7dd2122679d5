--TEST--
await() of things that are not Completable: TypeError; enums and anonymous classes cannot sneak in through the reserved interfaces
--SKIPIF--
<?php require __DIR__ . '/child.inc'; badinput_skip(); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/child.inc';
use function Async\{spawn, await};

function t(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: no error (", get_debug_type($r), ")\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
enum Plain { case A; }
t("enum", fn() => await(Plain::A));
t("WeakReference", fn() => await(WeakReference::create(spawn(fn() => 1))));
t("array with coroutine", fn() => await([spawn(fn() => 1)]));
t("Closure returning coroutine", fn() => await(fn() => spawn(fn() => 1)));
t("token is enum", fn() => await(spawn(fn() => 1), Plain::A));
t("token is Closure", fn() => await(spawn(fn() => 1), fn() => 1));
// The interfaces can be named in type checks, but not implemented by user code.
var_dump(spawn(fn() => 1) instanceof Async\Completable, Plain::A instanceof Async\Awaitable);
var_dump(interface_exists('Async\Completable'), (new ReflectionClass('Async\Completable'))->isInterface());

foreach ([
    'enum' => '<?php enum E implements Async\Completable { case A;
        public function cancel(?Async\AsyncCancellation $c = null): void {}
        public function isCompleted(): bool { return true; }
        public function isCancelled(): bool { return false; } }
        var_dump(Async\await(E::A));',
    'anonymous class via sub-interface' => '<?php interface I extends Async\Completable {}
        $o = new class implements I {
        public function cancel(?Async\AsyncCancellation $c = null): void {}
        public function isCompleted(): bool { return true; }
        public function isCancelled(): bool { return false; } };
        var_dump(Async\await($o));',
    'runtime-declared class after launch' => '<?php Async\delay(0);
        eval("abstract class Late implements Async\Awaitable {}");
        echo "not reached\n";',
] as $label => $code) {
    /* PHP 8.5 follows a fatal error with its stack trace (fatal_error_backtraces, unknown to and
     * ignored by older PHPs): the message is what this test is about */
    [$out, $rc] = run_child($code, 5.0, ['fatal_error_backtraces' => 0]);
    echo "$label: rc=$rc ", trim($out), "\n";
}
?>
--EXPECTF--
enum: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, Plain given
WeakReference: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, WeakReference given
array with coroutine: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, array given
Closure returning coroutine: TypeError: Async\await(): Argument #1 ($awaitable) must be of type Async\Completable, Closure given
token is enum: TypeError: Async\await(): Argument #2 ($cancellation) must be of type ?Async\Completable, Plain given
token is Closure: TypeError: Async\await(): Argument #2 ($cancellation) must be of type ?Async\Completable, Closure given
bool(true)
bool(false)
bool(true)
bool(true)
enum: rc=255 Fatal error: Class E cannot implement interface Async\Completable: it is reserved for the async runtime's classes in %s on line 1
anonymous class via sub-interface: rc=255 Fatal error: Class I@anonymous cannot implement interface Async\Awaitable: it is reserved for the async runtime's classes in %s on line 2
runtime-declared class after launch: rc=255 Fatal error: Class Late cannot implement interface Async\Awaitable: it is reserved for the async runtime's classes in %s(2) : eval()'d code on line 1
