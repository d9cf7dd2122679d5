--TEST--
FileSystemWatcher: debounceMs merges a burst into one event with filename = null, debounceMs after the last change; maxHoldMs bounds how long a continuous burst can delay it
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip inotify semantics'); ?>
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\FileSystemWatcher;
use function Async\{spawn, delay, await};

$dir = watch_dir();
$pump = new Feed(new FileSystemWatcher($dir, coalesce: false));
$feed = new Feed(new FileSystemWatcher($dir, debounceMs: 150));

// A burst of five changes, each delivered (seen by $pump) before the next.
for ($i = 0; $i < 5; $i++) {
    file_put_contents("$dir/f$i.txt", "x");
    $pump->until("f$i.txt");
}
$last = hrtime(true);
$e = $feed->next();
$quiet = ms_since($last);
echo ev($e), "\n";
var_dump($quiet >= 150 - 1 - 20); // the last change reached the loop at most a few ms before $last
var_dump($e->path === $dir);
// One event for the whole burst: the next one is a new burst.
unlink("$dir/f0.txt");
echo ev($feed->next()), "\n";
$feed->watcher->close();

// maxHoldMs: a writer keeps changing a file every 30 ms for 60 rounds (~1.8 s); with a quiet
// period of 200 ms the event would wait for the end, maxHoldMs = 400 emits it during the burst.
$held = new Feed(new FileSystemWatcher($dir, debounceMs: 200, maxHoldMs: 400));
$rounds = 0;
$first = null;
$writer = spawn(function () use ($dir, &$rounds, &$first) {
    for (; $rounds < 60; $rounds++) {
        file_put_contents("$dir/busy.txt", $rounds);
        $first ??= hrtime(true);
        delay(30);
    }
});
$e = $held->next();
$elapsed = ms_since($first);
echo ev($e), "\n";
var_dump($elapsed >= 400 - 1 - 20, $rounds < 60);
await($writer);
$held->watcher->close();
$pump->watcher->close();
?>
--EXPECT--
null RC
bool(true)
bool(true)
null R
null RC
bool(true)
bool(true)
