--TEST--
FileSystemWatcher: recursive watching follows existing, new (mkdir -p), removed, recreated and moved-in subdirectories; names are relative to the root; symlinked directories are not followed; non-recursive sees only the top level
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\FileSystemWatcher;

$dir = watch_dir();
$outside = watch_dir();
mkdir("$dir/old/deeper", 0777, true);
$feed = new Feed(new FileSystemWatcher($dir, recursive: true));
$flat = new Feed(new FileSystemWatcher($dir));

touch("$dir/old/deeper/x");
echo "existing: ", ev($feed->next()), "\n";

mkdir("$dir/new/a/b", 0777, true);   // a/ and b/ may exist before their parents' handles do
file_put_contents("$dir/new/a/b/f.txt", "x");
echo "new: ", implode(' | ', $feed->until('new/a/b/f.txt')), "\n";
file_put_contents("$dir/new/a/b/g.txt", "x");
echo "new, later: ", implode(' | ', $feed->until('new/a/b/g.txt')), "\n";

rm_tree("$dir/old");
echo "removed: ", implode(' | ', $feed->until('old')), "\n";
mkdir("$dir/old");
echo "recreated: ", implode(' | ', $feed->until('old')), "\n";
file_put_contents("$dir/old/again.txt", "x");
echo "inside the recreated one: ", implode(' | ', $feed->until('old/again.txt')), "\n";

mkdir("$outside/moved");
rename("$outside/moved", "$dir/moved");
echo "moved in: ", implode(' | ', $feed->until('moved')), "\n";
touch("$dir/moved/y");
echo "inside it: ", implode(' | ', $feed->until('moved/y')), "\n";
rename("$dir/moved", "$outside/moved");
echo "moved out: ", implode(' | ', $feed->until('moved')), "\n";
touch("$outside/moved/not-seen");     // its handle was dropped with the move

mkdir("$outside/target");
symlink("$outside/target", "$dir/link");
echo "link: ", implode(' | ', $feed->until('link')), "\n";
touch("$outside/target/not-seen");    // behind a symlink: not followed
touch("$dir/marker");
echo "after: ", implode(' | ', $feed->until('marker')), "\n";

// The flat watcher saw only names directly in $dir, the same changes in the same order.
echo "flat: ", implode(' | ', $flat->until('marker')), "\n";
$feed->watcher->close();
$flat->watcher->close();
?>
--EXPECT--
existing: old/deeper/x RC
new: new R | new/a R | new/a/b R | new/a/b/f.txt R
new, later: new/a/b/g.txt RC
removed: old/deeper/x R | old/deeper R | old R
recreated: old R
inside the recreated one: old/again.txt RC
moved in: moved R
inside it: moved/y RC
moved out: moved R
link: link R
after: marker RC
flat: new R | old R | old R | moved R | moved R | link R | marker RC
