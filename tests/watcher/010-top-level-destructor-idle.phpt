--TEST--
FileSystemWatcher: foreach at top level before any coroutine launches the scheduler (as Channel's does); inside a destructor it throws as other waits do on PHP 8.2/8.3, and from PHP 8.4 waits for a change made by another coroutine; an idle watcher does not hold the script open
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

// PHP 8.2 and 8.3 forbid switching coroutines inside destructors: the foreach refuses to wait there.
// From PHP 8.4 it waits as anywhere else: a coroutine spawned in the destructor (it runs only once
// the foreach suspends) makes the change that ends the wait. A guard closes the watcher if no event
// comes within the bound, so a missing event fails the test instead of hanging it.
final class WaitsInDestructor
{
    public function __construct(private FileSystemWatcher $w, private string $dir) {}
    public function __destruct()
    {
        if (PHP_VERSION_ID >= 80400) {
            $dir = $this->dir;
            $w = $this->w;
            Async\spawn(fn () => touch("$dir/from-peer"));
            $guard = Async\spawn(function () use ($w) {
                Async\delay((int) (3000 * slow_factor()));
                echo "8.4+: BAD, no event within the bound\n";
                $w->close();
            });
        }
        try {
            foreach ($this->w as $e) {
                if (PHP_VERSION_ID < 80400) {
                    echo "8.2-8.3: BAD, unexpected event: ", ev($e), "\n";
                } elseif ($e->filename === 'from-peer') {
                    echo "8.4+: the foreach waited for another coroutine's change: ", $e->filename, "\n";
                    break;
                }
            }
        } catch (Throwable $t) {
            echo PHP_VERSION_ID >= 80400 ? "8.4+: BAD, " : "", get_class($t), ": ", $t->getMessage(), "\n";
        }
        if (isset($guard)) {
            $guard->cancel();
        }
    }
}
Async\await(Async\spawn(function () use ($w, $dir) {
    $o = new WaitsInDestructor($w, $dir);
    unset($o);
}));

// Nobody iterates this one (and $w) at the end: the script ends without waiting for changes.
$idle = new FileSystemWatcher($dir, recursive: true);
echo "end\n";
?>
--EXPECTF--
top level: early RC
%r(Async\\AsyncException: Cannot wait for filesystem events inside a destructor: PHP 8\.[23]\.\S+ forbids switching coroutines there|8\.4\+: the foreach waited for another coroutine's change: from-peer)%r
end
