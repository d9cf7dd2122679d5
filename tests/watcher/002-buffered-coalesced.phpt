--TEST--
FileSystemWatcher: changes made while nobody iterates are buffered; coalesced into one event per filename (flags OR-ed) in first-seen order
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\FileSystemWatcher;

$dir = watch_dir();
$idle = new FileSystemWatcher($dir);           // never iterated until the end
$pump = new Feed(new FileSystemWatcher($dir)); // proves each change was delivered by the loop

// Each change is seen by $pump before the next is made, so $idle received every one of them
// through the loop (the same inotify read serves both watchers) while nobody iterated it.
file_put_contents("$dir/a.txt", "1"); echo implode(' | ', $pump->until('a.txt')), "\n";
file_put_contents("$dir/b.txt", "1"); echo implode(' | ', $pump->until('b.txt')), "\n";
file_put_contents("$dir/a.txt", "2"); echo implode(' | ', $pump->until('a.txt')), "\n";
unlink("$dir/a.txt");                 echo implode(' | ', $pump->until('a.txt')), "\n";
touch("$dir/c.txt");                  echo implode(' | ', $pump->until('c.txt')), "\n";

// Now iterate: a.txt once (created, written, deleted: R and C), b.txt, c.txt, then nothing more.
$got = [];
foreach ($idle as $k => $e) {
    $got[] = "$k:" . ev($e);
    if (count($got) === 3) {
        break;
    }
}
echo implode(' | ', $got), "\n";
$feed = new Feed($idle);
file_put_contents("$dir/marker", "x");
echo ev($feed->next()), "\n";                  // the next one is the new change: nothing was left
$idle->close();
$pump->watcher->close();
?>
--EXPECT--
a.txt RC
b.txt RC
a.txt C
a.txt R
c.txt RC
0:a.txt RC | 1:b.txt RC | 2:c.txt RC
marker RC
