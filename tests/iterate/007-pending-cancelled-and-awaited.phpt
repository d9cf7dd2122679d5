--TEST--
iterate(): coroutines the callbacks spawned and left running are cancelled and awaited before iterate() returns (their finally blocks have run); with cancelPending = false they are awaited to completion
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{iterate, spawn, suspend, delay};

$log = [];
iterate([1, 2, 3], function ($v) use (&$log) {
    spawn(function () use ($v, &$log) {
        try {
            delay(5000);
            $log[] = "child $v done";
        } catch (Async\AsyncCancellation $e) {
            $log[] = "child $v: " . $e->getMessage();
        } finally {
            $log[] = "child $v finally";
        }
    });
    suspend(); // the child starts and waits
}, 2);
sort($log);
echo "cancelPending: ", implode(' | ', $log), "\n";

$log = [];
iterate([1, 2], function ($v) use (&$log) {
    spawn(function () use ($v, &$log) {
        delay(10 * $v);
        $log[] = "child $v done";
    });
}, 0, false);
echo "cancelPending=false: ", implode(' | ', $log), "\n";
?>
--EXPECT--
cancelPending: child 1 finally | child 1: Cancellation of pending coroutines after iterator completion | child 2 finally | child 2: Cancellation of pending coroutines after iterator completion | child 3 finally | child 3: Cancellation of pending coroutines after iterator completion
cancelPending=false: child 1 done | child 2 done
