--TEST--
TaskGroup: destroyed with unobserved task errors and no handler up the tree: the CompositeException ends the program like an unhandled coroutine error
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\TaskGroup;
use function Async\delay;

function work() {
    $g = new TaskGroup();
    $g->spawn(function () { throw new RuntimeException("nobody looked at me"); });
    $g->spawn(function () {
        try { delay(1000); } catch (Async\AsyncCancellation $e) { echo "sibling cancelled: ", $e->getMessage(), "\n"; throw $e; }
    });
    delay(5);
    echo "leaving work()\n";
}
work();
delay(100);
echo "not reached\n";
?>
--EXPECTF--
leaving work()
sibling cancelled: %s

Fatal error: Uncaught Async\CompositeException: TaskGroup destroyed with 1 unhandled task error in %s:%d
Stack trace:
#0 {main}
  thrown in %s on line %d
