--TEST--
Coroutine::finally(): a throwing handler does not stop later handlers; its error is observable
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$c = spawn(fn() => 1);
$c->finally(function () { throw new RuntimeException("from handler"); });
$c->finally(function () { echo "second handler still runs\n"; });
try {
    var_dump(await($c));
} catch (RuntimeException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}

// Body failed and handler failed: the handler's error chains the body's.
$d = spawn(function () { throw new LogicException("body"); });
$d->finally(function () { throw new RuntimeException("handler"); });
try {
    await($d);
} catch (Throwable $e) {
    echo get_class($e), ": ", $e->getMessage(), "; previous ",
        get_class($e->getPrevious()), ": ", $e->getPrevious()->getMessage(), "\n";
}

// Immediate handler (coroutine already finished): its exception is thrown by finally() itself.
$f = spawn(fn() => 1);
await($f);
try {
    $f->finally(function () { throw new DomainException("immediate"); });
    echo "no throw\n";
} catch (DomainException $e) {
    echo "finally() threw: ", $e->getMessage(), "\n";
}
// The coroutine's own outcome is unchanged by that.
var_dump(await($f));
?>
--EXPECT--
second handler still runs
RuntimeException: from handler
RuntimeException: handler; previous LogicException: body
finally() threw: immediate
int(1)
