--TEST--
Channel: with all timeouts 0 a deadlock on channels ends in the generic DeadlockError; the report shows the channel
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=1
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await};

$a = new Channel();
$b = new Channel(1);
$b->send("full");
$co = spawn(function () use ($b) {
    try {
        $b->send("blocked");
    } catch (Throwable $e) {
        echo "coroutine: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
});
try {
    $a->recv();
} catch (Async\AsyncCancellation $e) {
    echo "main: ", $e->getMessage(), "\n";
}
await($co);
var_dump($a->isClosed(), $b->isClosed(), count($b));
?>
--EXPECTF--
Warning: Deadlock detected: 2 coroutines waiting, 0 active events: every waiting coroutine is cancelled in %s014-deadlock-generic.php on line 16

Warning: Deadlock: Main coroutine spawned at %s014-deadlock-generic.php:8, suspended at %s014-deadlock-generic.php:16 (internal) waits for Channel(capacity=0, receivers=1, senders=0, buffered=0) in %s014-deadlock-generic.php on line 16

Warning: Deadlock: Coroutine %d spawned at %s014-deadlock-generic.php:8, suspended at %s014-deadlock-generic.php:10 (%r(Closure::__invoke|\{closure:%s014-deadlock-generic\.php:8\})%r) waits for Channel(capacity=1, receivers=0, senders=1, buffered=1) in %s014-deadlock-generic.php on line 10
coroutine: Async\AsyncCancellation: Deadlock detected
main: Deadlock detected
bool(false)
bool(false)
int(1)

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s014-deadlock-generic.php:16
Stack trace:
#0 %s014-deadlock-generic.php(16): Async\Channel->recv()
#1 {main}
  thrown in %s014-deadlock-generic.php on line 16
