--TEST--
TaskGroup: a coroutine iterating a group nobody closes is a deadlock; the report names the group
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=1
--FILE--
<?php
use Async\TaskGroup;

$g = new TaskGroup(2);
$g->spawnWithKey("k", fn() => "v");
try {
    foreach ($g as $k => [$v]) { echo "$k => $v\n"; }
} catch (Async\AsyncCancellation $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
k => v

Warning: Deadlock detected: 1 coroutine waiting, 0 active events: every waiting coroutine is cancelled in %s020-deadlock-report.php on line 7

Warning: Deadlock: Main coroutine spawned at %s020-deadlock-report.php:4, suspended at %s020-deadlock-report.php:7 (internal) waits for TaskGroup(tasks=1, queued=0, running=0) in %s020-deadlock-report.php on line 7
Async\AsyncCancellation: Deadlock detected

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s020-deadlock-report.php:7
Stack trace:
#0 {main}
  thrown in %s020-deadlock-report.php on line 7
