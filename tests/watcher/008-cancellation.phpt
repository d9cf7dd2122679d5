--TEST--
FileSystemWatcher: cancelling the iterating coroutine or its scope ends the loop with the cancellation; the watcher keeps its buffer and can be iterated again
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\{FileSystemWatcher, Scope, AsyncCancellation};
use function Async\{spawn, await, suspend};

$dir = watch_dir();
$w = new FileSystemWatcher($dir);
$scope = new Scope();
$waiting = false;
$loop = $scope->spawn(function () use ($w, &$waiting) {
    $waiting = true;
    try {
        foreach ($w as $e) {
            echo "unexpected: ", ev($e), "\n";
        }
        echo "not reached\n";
    } catch (AsyncCancellation $c) {
        echo "loop ended by ", get_class($c), ": ", $c->getMessage(), "\n";
        throw $c;
    }
});
while (!$waiting) {
    suspend();
}
$scope->cancel();
try {
    await($loop);
} catch (AsyncCancellation $c) {
    echo "await: ", $c->getMessage(), "\n";
}
var_dump($w->isClosed());

// Coroutine::cancel() the same way.
$c2 = spawn(function () use ($w) {
    foreach ($w as $e) {
        echo "unexpected\n";
    }
});
suspend();
$c2->cancel();
try {
    await($c2);
} catch (AsyncCancellation $c) {
    echo "await: ", $c->getMessage(), "\n";
}

// Still watching: a change made now is yielded to a new loop.
$feed = new Feed($w);
touch("$dir/after");
echo ev($feed->next()), "\n";
$w->close();
?>
--EXPECT--
loop ended by Async\AsyncCancellation: Scope was cancelled
await: Scope was cancelled
bool(false)
await: Coroutine cancelled
after RC
