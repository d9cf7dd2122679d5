--TEST--
FileSystemWatcher: foreach at top level before any coroutine launches the scheduler (as Channel's does); inside a destructor it throws as other waits do; an idle watcher does not hold the script open
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\FileSystemWatcher;

$dir = watch_dir();
$w = new FileSystemWatcher($dir);
touch("$dir/early");                      // before the scheduler exists: buffered
foreach ($w as $e) {
    echo "top level: ", ev($e), "\n";
    break;
}

final class WaitsInDestructor
{
    public function __construct(private FileSystemWatcher $w) {}
    public function __destruct()
    {
        try {
            foreach ($this->w as $e) {
                echo "unexpected\n";
            }
        } catch (Throwable $t) {
            echo get_class($t), ": ", $t->getMessage(), "\n";
        }
    }
}
Async\await(Async\spawn(function () use ($w) {
    $o = new WaitsInDestructor($w);
    unset($o);
}));

// Nobody iterates this one (and $w) at the end: the script ends without waiting for changes.
$idle = new FileSystemWatcher($dir, recursive: true);
echo "end\n";
?>
--EXPECTF--
top level: early RC
Async\AsyncException: Cannot wait for filesystem events inside a destructor%s
end
