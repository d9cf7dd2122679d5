--TEST--
FileSystemWatcher: the extensions allow-list ("php" or ".php", case-insensitive, on the base name) applies in coalesced, raw, recursive and debounce modes
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\FileSystemWatcher;

$dir = watch_dir();
mkdir("$dir/sub");
$coalesced = new Feed(new FileSystemWatcher($dir, recursive: true, extensions: ['php', '.Tpl']));
$raw = new Feed(new FileSystemWatcher($dir, recursive: true, coalesce: false, extensions: ['php']));
$debounced = new Feed(new FileSystemWatcher($dir, debounceMs: 50, extensions: ['php']));
$pump = new Feed(new FileSystemWatcher($dir, recursive: true));

foreach (['a.txt', 'sub/b.js', 'sub/c.PHP', 'php', '.php', 'x.php.bak', 'page.tpl', 'sub/z.php'] as $f) {
    file_put_contents("$dir/$f", "x");
    $pump->until($f);
}
echo "coalesced: ", implode(' | ', $coalesced->until('sub/z.php')), "\n";
echo "raw: ", implode(' | ', $raw->until('sub/z.php')), "\n";

// Debounce: only filtered changes start or extend a burst. Nothing above was a top-level .php
// ("php", ".php" and "x.php.bak" are not), nor are these writes: the first burst the debounced
// watcher reports is the one last.php starts.
file_put_contents("$dir/only.txt", "x"); $pump->until('only.txt');
file_put_contents("$dir/only.txt", "y"); $pump->until('only.txt');
$t = hrtime(true);
file_put_contents("$dir/last.php", "x"); $pump->until('last.php');
echo "debounced: ", ev($debounced->next()), "\n";
var_dump(ms_since($t) >= 50 - 1);
file_put_contents("$dir/only.txt", "z"); $pump->until('only.txt');
touch("$dir/last.php"); $pump->until('last.php');
echo "debounced: ", ev($debounced->next()), "\n";

foreach ([$coalesced, $raw, $debounced, $pump] as $f) {
    $f->watcher->close();
}
?>
--EXPECT--
coalesced: sub/c.PHP RC | page.tpl RC | sub/z.php RC
raw: sub/c.PHP R | sub/c.PHP C | sub/z.php R
debounced: null RC
bool(true)
debounced: null C
