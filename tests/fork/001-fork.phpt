--TEST--
pcntl_fork(): refused with an Error while coroutines other than main live (from main or from a coroutine); before any spawn and after every coroutine finished the child works, with a loop of its own
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
use function Async\{spawn, await, delay};

function child_runs(string $label): void {
    $pid = pcntl_fork();
    if ($pid === 0) {
        // The child's own loop: timers fire and coroutines run.
        $c = spawn(function () use ($label) { delay(5); return "$label: child coroutine ran"; });
        echo await($c), "\n";
        exit(7);
    }
    pcntl_waitpid($pid, $status);
    echo "$label: child exit ", pcntl_wexitstatus($status), "\n";
}

child_runs('before any spawn');

$sleeper = spawn(fn() => delay(50));
try {
    pcntl_fork();
    echo "not refused\n";
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

$inner = spawn(function () {
    try {
        pcntl_fork();
        return 'not refused';
    } catch (Error $e) {
        return 'from a coroutine: ' . $e->getMessage();
    }
});
echo await($inner), "\n";
await($sleeper);

// Every coroutine finished: the loop exists, the child re-arms it.
child_runs('after');
delay(5);
echo "parent goes on\n";
?>
--EXPECT--
before any spawn: child coroutine ran
before any spawn: child exit 7
Error: Cannot fork() while coroutines other than the main one are running: fork before spawning, or once every coroutine has finished
from a coroutine: Cannot fork() while coroutines other than the main one are running: fork before spawning, or once every coroutine has finished
after: child coroutine ran
after: child exit 7
parent goes on
