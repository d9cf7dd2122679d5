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
} catch (Async\DeadlockError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
k => v
=== DEADLOCK REPORT START ===
Coroutines waiting: 1, active_events: 0

Main coroutine spawned at %s:%d, suspended at %s:%d (%s)
  waiting for:
    - TaskGroup(tasks=1, queued=0, running=0)

=== DEADLOCK REPORT END   ===
Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting
