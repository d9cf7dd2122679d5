--TEST--
Pool: a resource released to a parked waiter that has not run yet counts as idle (idleCount() 1, activeCount() 0) until the waiter takes it; cancelled before it runs, the waiter passes it on (issue #39 item 10)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, suspend};

function counts(string $when, Pool $pool): void
{
    printf("%-40s idle %d, active %d, count %d\n", $when, $pool->idleCount(), $pool->activeCount(), count($pool));
}

$made = 0;
$pool = new Pool(function () use (&$made) { return ++$made; }, max: 1);
$r = $pool->acquire();
counts('held by main', $pool);
$b = spawn(fn () => $pool->acquire());
while (!$b->isStarted() || !$b->isSuspended()) {
    suspend();
}
counts('b parked', $pool);
$pool->release($r);
counts('released, b woken but not run', $pool);
echo 'b got ', await($b), "\n";
counts('b holds it', $pool);

// Woken with the resource, then cancelled before it ran: the resource goes to the next waiter.
$c = spawn(fn () => $pool->acquire());
$d = spawn(fn () => $pool->acquire());
while (!$c->isStarted() || !$c->isSuspended() || !$d->isStarted() || !$d->isSuspended()) {
    suspend();
}
$pool->release(1);
counts('released to c, not run', $pool);
$c->cancel();
try {
    await($c);
} catch (Async\AsyncCancellation $e) {
    echo "c: cancelled\n";
}
echo 'd got ', await($d), "\n";
counts('d holds it', $pool);
$pool->release(1);
counts('released, nobody waits', $pool);
echo "made $made\n";
?>
--EXPECT--
held by main                             idle 0, active 1, count 1
b parked                                 idle 0, active 1, count 1
released, b woken but not run            idle 1, active 0, count 1
b got 1
b holds it                               idle 0, active 1, count 1
released to c, not run                   idle 1, active 0, count 1
c: cancelled
d got 1
d holds it                               idle 0, active 1, count 1
released, nobody waits                   idle 1, active 0, count 1
made 1
