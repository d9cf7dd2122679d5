--TEST--
FileSystemWatcher as an Awaitable: the await_* functions see it fire when a change is buffered (without taking it) and complete once it is closed
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\FileSystemWatcher;
use function Async\{spawn, await, await_any_or_fail, await_all, timeout, suspend};

$dir = watch_dir();
$w = new FileSystemWatcher($dir);
$waiter = spawn(fn () => await_any_or_fail([$w]));
suspend();
touch("$dir/a");
var_dump(await($waiter));
foreach ($w as $e) {                 // the change is still there for the iterator
    echo ev($e), "\n";
    break;
}
// Nothing buffered, no change: a timeout token ends the wait.
try {
    await_any_or_fail([$w], timeout((int) (50 * slow_factor())));
} catch (Async\OperationCanceledException $e) {
    echo "no change: ", get_class($e->getPrevious()), "\n";
}
$closer = spawn(function () use ($w) { $w->close(); });
[$results, $errors] = await_all([$w]);
var_dump($results, $errors);
[$results] = await_all([$w]);        // closed: completes at once
var_dump(count($results));
?>
--EXPECT--
NULL
a RC
no change: Async\TimeoutException
array(1) {
  [0]=>
  NULL
}
array(0) {
}
int(1)
