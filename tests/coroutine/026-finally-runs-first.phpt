--TEST--
Coroutine::finally() handlers run right after their coroutine completes, before the coroutines already queued (issue #39 item 2)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, await_all, suspend};

$log = [];
$a = spawn(function () use (&$log) { $log[] = 'a runs'; return 'A'; });
$a->finally(function () use (&$log) { $log[] = 'a finally'; });
$b = spawn(function () use (&$log) { $log[] = 'b runs'; });
$c = spawn(function () use (&$log) {
    $log[] = 'c runs';
    suspend();
    $log[] = 'c again';
});
$c->finally(function () use (&$log) { $log[] = 'c finally'; });
$d = spawn(function () use (&$log) { $log[] = 'd runs'; suspend(); $log[] = 'd again'; suspend(); $log[] = 'd third'; });
await_all([$a, $b, $c, $d]);
echo implode("\n", $log), "\n";

// an awaiter woken by the end gets the result; the handler ran before it resumed
$log = [];
$e = spawn(function () use (&$log) { suspend(); $log[] = 'e ends'; return 'E'; });
$e->finally(function () use (&$log) { $log[] = 'e finally'; });
$log[] = 'awaited: ' . await($e);
echo implode("\n", $log), "\n";
?>
--EXPECT--
a runs
a finally
b runs
c runs
d runs
c again
c finally
d again
d third
e ends
e finally
awaited: E
