--TEST--
FileSystemWatcher: foreach yields readonly FileSystemEvents (path, filename, renamed, changed) for creations, writes, renames and deletions; coalesced by default
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\{FileSystemWatcher, FileSystemEvent, Awaitable};

$dir = watch_dir();
$w = new FileSystemWatcher($dir);
var_dump($w instanceof Awaitable, $w instanceof IteratorAggregate, $w->isClosed());
$r = new ReflectionClass(FileSystemEvent::class);
var_dump($r->isFinal(), $r->isReadOnly());

$feed = new Feed($w);
file_put_contents("$dir/a.txt", "one");        // IN_CREATE + IN_MODIFY, read together: one entry
$e = $feed->next();
var_dump($e->path === $dir, $e->filename, $e->renamed, $e->changed);
try {
    $e->filename = 'other';
} catch (Error $ex) {
    echo $ex->getMessage(), "\n";
}

file_put_contents("$dir/a.txt", "two");         // a write only
echo ev($feed->next()), "\n";
chmod("$dir/a.txt", 0600);                      // attributes: changed
echo ev($feed->next()), "\n";
rename("$dir/a.txt", "$dir/b.txt");             // both names, renamed
echo implode(' | ', $feed->until('b.txt')), "\n";
unlink("$dir/b.txt");
echo ev($feed->next()), "\n";

$w->close();
var_dump($feed->next(), $feed->ended, $w->isClosed());
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
string(5) "a.txt"
bool(true)
bool(true)
Cannot modify readonly property Async\FileSystemEvent::$filename
a.txt C
a.txt C
a.txt R | b.txt R
b.txt R
NULL
NULL
bool(true)
