--TEST--
Future: exit() inside a chain callable ends the script; the child is left cancelled, nothing leaks
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await};

$child = Future::completed(1)->map(function () { echo "exiting\n"; exit(3); });
register_shutdown_function(function () use ($child) {
    echo "shutdown: completed=", var_export($child->isCompleted(), true), " cancelled=", var_export($child->isCancelled(), true), "\n";
});
await($child);
echo "not reached\n";
?>
--EXPECT--
exiting
shutdown: completed=true cancelled=true
