--TEST--
FileSystemWatcher: the buffer is bounded (4,096 named entries); changes beyond it fold into one event with filename = null, then the watcher goes on normally
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\FileSystemWatcher;

$dir = watch_dir();
$w = new FileSystemWatcher($dir);
// 5,000 new files (about 10,000 inotify events, within the kernel's 16,384 queue): nobody
// iterates, so they wait in the kernel and reach the buffer all at once on the first wait.
for ($i = 0; $i < 5000; $i++) {
    touch(sprintf("%s/f%04d", $dir, $i));
}
$named = 0;
$summary = null;
foreach ($w as $e) {
    if ($e->filename === null) {
        $summary = $e;
        break;
    }
    if ($e->filename !== sprintf("f%04d", $named)) {
        echo "out of order: {$e->filename}\n";
    }
    $named++;
}
var_dump($named, $summary->renamed, $summary->changed);
$feed = new Feed($w);
touch("$dir/after");
echo ev($feed->next()), "\n";
$w->close();
?>
--EXPECT--
int(4096)
bool(true)
bool(true)
after RC
