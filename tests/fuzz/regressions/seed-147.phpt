--TEST--
fuzz regression: seed 147 - a self-cancel delivered by suspend()/delay(0) must not leave the coroutine queued
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.schedule_seed=147
async.debug_deadlock=0
--FILE--
<?php
// Minimized from seed 147 of an early version of tests/fuzz/generate.php (also seeds 92, 99, 107,
// 162, 209, 236, 275; the generator has changed since, so those seeds now give other programs):
// a task cancels itself (current_coroutine()->cancel()) and reaches suspend(); a finally handler
// of that task then spawns a coroutine and awaits it. The await returned NULL at once, with the
// awaited coroutine not even started. Async\suspend() and delay(0) put the coroutine in the run
// queue and only then does async__scheduler_suspend() throw the pending cancellation, so a stale
// queue entry is left behind and the coroutine's NEXT suspension (await, delay(n), ...) is resumed
// by it spuriously.
use function Async\{spawn, await, suspend, delay, current_coroutine};
use Async\AsyncCancellation;

$sum = 0;
foreach (['suspend', 'delay0'] as $how) {
    // 1. The next await() after the delivered self-cancel, in a finally handler.
    $c = spawn(function () use ($how) {
        current_coroutine()->cancel(new AsyncCancellation("self"));
        $how === 'suspend' ? suspend() : delay(0);
        echo "FAIL not cancelled\n";
    });
    $c->finally(function () use (&$sum, $how) {
        $x = spawn(function () { delay(5); return 7; });
        $r = await($x);
        if ($r !== 7 || !$x->isCompleted()) {
            echo "FAIL $how: await() in the finally handler returned ", var_export($r, true),
                ", awaited coroutine completed: ", var_export($x->isCompleted(), true), "\n";
            await($x);
        }
        $sum += 7;
    });
    try {
        await($c);
    } catch (AsyncCancellation $e) {
        $sum += strlen($e->getMessage());   // "self"
    }

    // 2. The next delay() after the delivered self-cancel, caught in the task itself.
    $d = spawn(function () use ($how) {
        current_coroutine()->cancel();
        try {
            $how === 'suspend' ? suspend() : delay(0);
        } catch (AsyncCancellation $e) {
        }
        $t = microtime(true);
        delay(30);
        $ms = (microtime(true) - $t) * 1000;
        if ($ms < 25) {
            echo "FAIL $how: delay(30) after the delivered self-cancel returned after ", round($ms), " ms\n";
        }
        return 1;
    });
    $sum += await($d);
}
echo "OK $sum\n";
?>
--EXPECT--
OK 24
