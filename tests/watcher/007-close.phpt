--TEST--
FileSystemWatcher: close() from another coroutine ends a waiting foreach quietly; idempotent; drops what is buffered; a closed watcher iterates nothing
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\FileSystemWatcher;
use function Async\{spawn, await, suspend};

$dir = watch_dir();
$w = new FileSystemWatcher($dir);
$waiting = false;
$loop = spawn(function () use ($w, &$waiting) {
    $waiting = true;
    foreach ($w as $e) {
        echo "unexpected: ", ev($e), "\n";
    }
    echo "foreach ended\n";
    return 'done';
});
while (!$waiting) {
    suspend();
}
spawn(fn () => $w->close());
var_dump(await($loop), $w->isClosed());
$w->close();                       // idempotent
var_dump($w->isClosed());
foreach ($w as $e) {
    echo "nothing to iterate\n";
}

// Buffered changes are dropped by close().
$b = new FileSystemWatcher($dir);
$pump = new Feed(new FileSystemWatcher($dir));
touch("$dir/a"); $pump->until('a');
$b->close();
$n = 0;
foreach ($b as $e) {
    $n++;
}
var_dump($n);
$pump->watcher->close();
echo "end\n";
?>
--EXPECT--
foreach ended
string(4) "done"
bool(true)
bool(true)
int(0)
end
