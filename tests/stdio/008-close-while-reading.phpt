--TEST--
stdio: closing a pipe another coroutine waits on wakes it: its fread() gives false (not '': issue #39 item 10) (the stream is gone by then), no crash; cancelling a waiting reader works and leaves the pipe usable
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$p = proc_open([PHP_BINARY, '-n', '-r', 'fgets(STDIN);'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
$reader = spawn(function () use ($pipes) {
    return fread($pipes[1], 10);
});
$cancelled = spawn(function () use ($pipes) {
    try {
        fread($pipes[1], 10);
    } catch (Async\AsyncCancellation $e) {
        return 'cancelled';
    }
});
await(spawn(function () use ($cancelled) {
    delay(50);
    $cancelled->cancel();
}));
var_dump(await($cancelled));
await(spawn(function () use (&$pipes) {
    delay(20);
    fclose($pipes[1]);
}));
var_dump(await($reader));
fclose($pipes[0]);
var_dump(proc_close($p));
echo "done\n";
?>
--EXPECT--
string(9) "cancelled"
bool(false)
int(0)
done
