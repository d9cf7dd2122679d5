--TEST--
iterate(): with cancelPending, the coroutines the callbacks spawned get their first run before the leftovers are cancelled; none runs past its first suspension
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\AsyncCancellation;
use function Async\{iterate, spawn, suspend};

function child(string $name, array &$log): void
{
    spawn(function () use ($name, &$log) {
        $log[] = "$name started";
        try {
            suspend();
            suspend();
            $log[] = "$name ran on";
        } catch (AsyncCancellation $e) {
            $log[] = "$name cancelled";
        }
    });
}

/* The callbacks spawn and return at once: their children have not run when the last one ends. */
foreach ([0, 1, 2] as $limit) {
    $log = [];
    iterate([1, 2, 3], function ($v) use (&$log) { child("child $v", $log); }, $limit, true);
    echo "concurrency $limit: ", implode(', ', $log), "\n";
}

/* After an error as well. */
$log = [];
try {
    iterate([1, 2], function ($v) use (&$log) {
        child("child $v", $log);
        if ($v === 2) {
            throw new RuntimeException("failed at $v");
        }
    }, 0, true);
} catch (RuntimeException $e) {
    $log[] = "caller: " . $e->getMessage();
}
echo "error: ", implode(', ', $log), "\n";
?>
--EXPECT--
concurrency 0: child 1 started, child 2 started, child 3 started, child 1 cancelled, child 2 cancelled, child 3 cancelled
concurrency 1: child 1 started, child 2 started, child 3 started, child 1 cancelled, child 2 cancelled, child 3 cancelled
concurrency 2: child 1 started, child 2 started, child 3 started, child 1 cancelled, child 2 cancelled, child 3 cancelled
error: child 1 started, child 2 started, child 1 cancelled, child 2 cancelled, caller: failed at 2
