--TEST--
Two coroutines needing the same class while its autoloader waits: the second must get the class too, not a misleading "Class not found"
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

spl_autoload_register($loader = function (string $class) {
    echo "autoloading $class\n";
    delay(5); // e.g. reading the class file through a coroutine-aware stream
    eval("class $class { const X = 'loaded'; }");
});
$a = spawn(function () {
    try { return "a: " . LazyClass::X; } catch (Throwable $e) { return "a: " . get_class($e) . ": " . $e->getMessage(); }
});
$b = spawn(function () {
    try { return "b: " . LazyClass::X; } catch (Throwable $e) { return "b: " . get_class($e) . ": " . $e->getMessage(); }
});
echo await($a), "\n", await($b), "\n";

spl_autoload_unregister($loader);

/* an autoloader that fails to declare the class: the waiter runs its own attempt once the first
 * is over, and both get PHP's answer; recursion within one coroutine still meets the engine's guard */
$looked = $active = $most = 0;
spl_autoload_register(function (string $class) use (&$looked, &$active, &$most) {
    if ($class === 'NeverThere') {
        $looked++;
        $most = max($most, ++$active);
        delay(5);
        $active--;
        return;
    }
    if ($class === 'Recursive') {
        echo "recursive lookup inside the autoloader: ", class_exists('Recursive') ? 'found' : 'not found', "\n";
        eval("class Recursive {}");
    }
});
$c = spawn(fn() => class_exists('NeverThere') ? 'c: found' : 'c: not found');
$d = spawn(fn() => class_exists('NeverThere') ? 'd: found' : 'd: not found');
$results = [await($c), await($d)];
echo implode("\n", $results), "\nthe autoloader ran $looked times, at most $most at once\n";
echo class_exists('Recursive') ? "Recursive declared\n" : "no\n";
?>
--EXPECT--
autoloading LazyClass
a: loaded
b: loaded
c: not found
d: not found
the autoloader ran 2 times, at most 1 at once
recursive lookup inside the autoloader: not found
Recursive declared
