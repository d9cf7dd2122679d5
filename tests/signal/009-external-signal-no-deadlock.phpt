--TEST--
signal(): waiting for a signal with nothing else active is not a deadlock; a signal from another process wakes it
--EXTENSIONS--
posix
--INI--
async.debug_deadlock=1
--FILE--
<?php
use Async\Signal;
use function Async\{signal, spawn, await};

// The only thing left is the signal wait (no timer, no other coroutine): the scheduler blocks
// in the loop instead of declaring a deadlock, and the child's kill wakes it.
$f = signal(Signal::SIGUSR1);
$proc = proc_open(['sh', '-c', 'sleep 0.1; kill -USR1 ' . getmypid()], [], $pipes);
$w = spawn(fn() => await($f));
var_dump(await($w));
var_dump(proc_close($proc));
?>
--EXPECT--
enum(Async\Signal::SIGUSR1)
int(0)
