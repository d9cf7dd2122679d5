--TEST--
isStarted/isQueued/isRunning/isSuspended/isCancelled/isCancellationRequested/isCompleted in each state (a queued, not started coroutine is suspended: issue #39 item 10)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, protect, current_coroutine};
use Async\AsyncCancellation;

function st(string $label, Async\Coroutine $c) {
    $r = [];
    foreach (['isStarted' => 'S', 'isQueued' => 'Q', 'isRunning' => 'R', 'isSuspended' => 'P',
              'isCancelled' => 'C', 'isCancellationRequested' => 'X', 'isCompleted' => 'D'] as $m => $k) {
        $r[] = $k . ($c->$m() ? 1 : 0);
    }
    echo str_pad($label, 22), implode(' ', $r), "\n";
}

$c = spawn(function () {
    st("running (self)", current_coroutine());
    delay(20);
    st("running again", current_coroutine());
    return 1;
});
st("queued", $c);
suspend();
st("suspended on timer", $c);
await($c);
st("completed", $c);

$q = spawn(function () { suspend(); });
suspend();
st("suspend()ed, requeued", $q);
await($q);

$x = spawn(fn() => 1);
$x->cancel();
st("cancelled unstarted", $x);

$y = spawn(function () { try { delay(10000); } catch (AsyncCancellation $e) { throw $e; } });
suspend();
$y->cancel();
st("cancel requested", $y);
try { await($y); } catch (AsyncCancellation $e) {}
st("cancelled", $y);

$p = spawn(fn() => protect(fn() => delay(20)));
suspend();
$p->cancel();
st("deferred in protect", $p);
try { await($p); } catch (AsyncCancellation $e) {}
st("cancelled after prot.", $p);

$f = spawn(function () { throw new Exception("x"); });
try { await($f); } catch (Exception $e) {}
st("failed", $f);

// The main coroutine while it runs.
st("main", current_coroutine());
?>
--EXPECT--
queued                S0 Q1 R0 P1 C0 X0 D0
running (self)        S1 Q0 R1 P0 C0 X0 D0
suspended on timer    S1 Q0 R1 P1 C0 X0 D0
running again         S1 Q0 R1 P0 C0 X0 D0
completed             S1 Q0 R0 P0 C0 X0 D1
suspend()ed, requeued S1 Q1 R1 P1 C0 X0 D0
cancelled unstarted   S0 Q1 R0 P1 C0 X1 D0
cancel requested      S1 Q1 R1 P1 C0 X1 D0
cancelled             S1 Q0 R0 P0 C1 X0 D1
deferred in protect   S1 Q0 R1 P1 C0 X1 D0
cancelled after prot. S1 Q0 R0 P0 C1 X0 D1
failed                S1 Q0 R0 P0 C0 X0 D1
main                  S1 Q0 R1 P0 C0 X0 D0
