--TEST--
FileSystemWatcher: bad arguments (ValueError/TypeError), a missing path (AsyncException with the OS message), double construction, by-reference iteration, clone, serialize
--FILE--
<?php
require __DIR__ . '/watch.inc';
use Async\{FileSystemWatcher, FileSystemEvent};

$dir = watch_dir();
$cases = [
    'empty path' => fn () => new FileSystemWatcher(''),
    'NUL in path' => fn () => new FileSystemWatcher("$dir\0x"),
    'missing path' => fn () => new FileSystemWatcher("$dir/missing"),
    'missing, recursive' => fn () => new FileSystemWatcher("$dir/missing", true),
    'negative debounce' => fn () => new FileSystemWatcher($dir, debounceMs: -1),
    'huge debounce' => fn () => new FileSystemWatcher($dir, debounceMs: PHP_INT_MAX),
    'negative maxHold' => fn () => new FileSystemWatcher($dir, debounceMs: 10, maxHoldMs: -5),
    'maxHold alone' => fn () => new FileSystemWatcher($dir, maxHoldMs: 100),
    'extension int' => fn () => new FileSystemWatcher($dir, extensions: ['php', 5]),
    'extension empty' => fn () => new FileSystemWatcher($dir, extensions: ['.']),
    'extension slash' => fn () => new FileSystemWatcher($dir, extensions: ['a/b']),
    'path type' => fn () => new FileSystemWatcher([]),
];
foreach ($cases as $name => $make) {
    try {
        $make();
        echo "$name: no exception\n";
    } catch (Throwable $e) {
        echo "$name: ", get_class($e), ": ", str_replace($dir, 'DIR', $e->getMessage()), "\n";
    }
}

$w = new FileSystemWatcher($dir);
try {
    $w->__construct($dir);
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    foreach ($w as &$e) {
    }
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    clone $w;
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    serialize($w);
} catch (Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
// A file (not a directory) can be watched; recursive is then just the file.
touch("$dir/file");
$f = new FileSystemWatcher("$dir/file", recursive: true);
var_dump($f->isClosed());
$f->close();
// A constructor that failed leaves nothing watching: the object is closed.
try {
    $raw = new FileSystemWatcher($dir, debounceMs: -1);
} catch (ValueError) {
}
echo "end\n";
?>
--EXPECT--
empty path: ValueError: Async\FileSystemWatcher::__construct(): Argument #1 ($path) cannot be empty
NUL in path: ValueError: Async\FileSystemWatcher::__construct(): Argument #1 ($path) must not contain any null bytes
missing path: Async\AsyncException: Cannot watch "DIR/missing": No such file or directory
missing, recursive: Async\AsyncException: Cannot watch "DIR/missing": No such file or directory
negative debounce: ValueError: Async\FileSystemWatcher::__construct(): Argument #4 ($debounceMs) must be between 0 and 2147483647
huge debounce: ValueError: Async\FileSystemWatcher::__construct(): Argument #4 ($debounceMs) must be between 0 and 2147483647
negative maxHold: ValueError: Async\FileSystemWatcher::__construct(): Argument #5 ($maxHoldMs) must be between 0 and 2147483647
maxHold alone: ValueError: Async\FileSystemWatcher::__construct(): Argument #5 ($maxHoldMs) requires $debounceMs to be greater than 0
extension int: TypeError: Async\FileSystemWatcher::__construct(): Argument #6 ($extensions) must contain only strings, int given
extension empty: ValueError: Async\FileSystemWatcher::__construct(): Argument #6 ($extensions) must contain file extensions ("php" or ".php"), "." given
extension slash: ValueError: Async\FileSystemWatcher::__construct(): Argument #6 ($extensions) must contain file extensions ("php" or ".php"), "a/b" given
path type: TypeError: Async\FileSystemWatcher::__construct(): Argument #1 ($path) must be of type string, array given
Error: Async\FileSystemWatcher is already initialized
Error: Cannot iterate Async\FileSystemWatcher by reference
Error: Trying to clone an uncloneable object of class Async\FileSystemWatcher
Exception: Serialization of 'Async\FileSystemWatcher' is not allowed
bool(false)
end
