--TEST--
Pool: destructor exceptions from close() (first rethrown, the others chained as previous) and from release()
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;

$k = 0;
$pool = new Pool(function () use (&$k) { return ++$k; }, destructor: function ($r) {
    echo "destroy $r\n";
    if ($r !== 2) {
        throw new RuntimeException("cannot destroy $r");
    }
}, min: 4, max: 5);
$busy = $pool->acquire(); // 1 stays busy
try {
    $pool->close();
    echo "not reached\n";
} catch (RuntimeException $e) {
    for ($x = $e; $x; $x = $x->getPrevious()) {
        echo get_class($x), ": ", $x->getMessage(), "\n";
    }
}
var_dump($pool->isClosed(), count($pool));

// A busy resource released into the closed pool: destroyed there, and its exception propagates.
try {
    $pool->release($busy);
} catch (RuntimeException $e) {
    echo "release: ", $e->getMessage(), "\n";
}
var_dump(count($pool));

// The pool object destroyed while an exception unwinds: both survive, the first one wins.
function f() {
    $p = new Pool(fn() => "y", destructor: function ($r) { throw new LogicException("from destructor"); }, min: 1);
    throw new DomainException("from f");
}
try {
    f();
} catch (Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "; previous: ",
        $e->getPrevious() ? get_class($e->getPrevious()) . ": " . $e->getPrevious()->getMessage() : "none", "\n";
}
?>
--EXPECT--
destroy 2
destroy 3
destroy 4
RuntimeException: cannot destroy 3
RuntimeException: cannot destroy 4
bool(true)
int(1)
destroy 1
release: cannot destroy 1
int(0)
DomainException: from f; previous: LogicException: from destructor
