--TEST--
Channel owned by a scope (or TaskGroup) that is cancelled or disposed: every coroutine parked in send()/recv() — inside the scope or not — gets ChannelException(SCOPE_DISPOSED), not the scope's cancellation; the scope's own coroutines meet the cancellation at their next suspension
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, Scope, ChannelException, TaskGroup};
use function Async\{spawn, await, suspend, delay};

function describe(Throwable $e): string
{
    return get_class($e) . ($e instanceof ChannelException ? '(' . $e->reason->name . ')' : '') . ': ' . $e->getMessage();
}

function run(string $mode): void
{
    $owner = $mode === 'taskgroup' ? new TaskGroup() : new Scope();
    $ch = null;
    $log = [];
    /* three channels (so the waiters do not meet each other), all made inside the owner */
    $owner->spawn(function () use (&$ch) { $ch = [new Channel(), new Channel(), new Channel()]; });
    suspend();
    suspend();
    $outside = spawn(function () use (&$ch, &$log) {
        try {
            $ch[0]->recv();
        } catch (Throwable $e) {
            $log[] = 'outside recv: ' . describe($e);
        }
    });
    $owner->spawn(function () use (&$ch, &$log) {
        try {
            $ch[1]->send('never');
        } catch (Throwable $e) {
            $log[] = 'inside send: ' . describe($e);
        }
        try {
            delay(1); // the cancellation was kept for here
            $log[] = 'inside: not cancelled';
        } catch (Throwable $e) {
            $log[] = 'inside next suspension: ' . describe($e);
        }
    });
    $owner->spawn(function () use (&$ch, &$log) {
        try {
            foreach ($ch[2] as $v) {
            }
            $log[] = 'inside foreach ended quietly';
        } catch (Throwable $e) {
            $log[] = 'inside foreach: ' . describe($e);
        }
    });
    suspend();
    suspend();
    match ($mode) {
        'cancel' => $owner->cancel(),
        'dispose' => $owner->dispose(),
        'taskgroup' => $owner->cancel(),
    };
    await($outside);
    delay(20);
    sort($log);
    echo "$mode:\n  ", implode("\n  ", $log), "\n";
}

run('cancel');
run('dispose');
run('taskgroup');
?>
--EXPECT--
cancel:
  inside foreach: Async\ChannelException(SCOPE_DISPOSED): Channel closed: owner scope disposed
  inside next suspension: Async\AsyncCancellation: Scope was cancelled
  inside send: Async\ChannelException(SCOPE_DISPOSED): Channel closed: owner scope disposed
  outside recv: Async\ChannelException(SCOPE_DISPOSED): Channel closed: owner scope disposed
dispose:
  inside foreach: Async\ChannelException(SCOPE_DISPOSED): Channel closed: owner scope disposed
  inside next suspension: Async\AsyncCancellation: Scope was cancelled
  inside send: Async\ChannelException(SCOPE_DISPOSED): Channel closed: owner scope disposed
  outside recv: Async\ChannelException(SCOPE_DISPOSED): Channel closed: owner scope disposed
taskgroup:
  inside foreach: Async\ChannelException(SCOPE_DISPOSED): Channel closed: owner scope disposed
  inside next suspension: Async\AsyncCancellation: TaskGroup was cancelled
  inside send: Async\ChannelException(SCOPE_DISPOSED): Channel closed: owner scope disposed
  outside recv: Async\ChannelException(SCOPE_DISPOSED): Channel closed: owner scope disposed
