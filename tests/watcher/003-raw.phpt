--TEST--
FileSystemWatcher: coalesce: false yields every change libuv reports, in order, nothing merged
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\FileSystemWatcher;

$dir = watch_dir();
$raw = new FileSystemWatcher($dir, coalesce: false);
$pump = new Feed(new FileSystemWatcher($dir));

file_put_contents("$dir/a.txt", "1"); $pump->until('a.txt');
file_put_contents("$dir/b.txt", "1"); $pump->until('b.txt');
file_put_contents("$dir/a.txt", "2"); $pump->until('a.txt');
unlink("$dir/a.txt");                 $pump->until('a.txt');
file_put_contents("$dir/end", "");    $pump->until('end');

$feed = new Feed($raw);
echo implode(' | ', $feed->until('end')), "\n";
$raw->close();
$pump->watcher->close();
?>
--EXPECT--
a.txt R | a.txt C | b.txt R | b.txt C | a.txt C | a.txt R | end R
