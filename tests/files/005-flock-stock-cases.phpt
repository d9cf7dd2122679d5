--TEST--
files: flock() LOCK_NB and $would_block as stock inside a coroutine; LOCK_UN; a cancelled waiter leaves the queue; outside coroutines it is stock
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$path = tempnam(sys_get_temp_dir(), 'lock');
$a = fopen($path, 'r');
$b = fopen($path, 'r');
// Outside a coroutine: stock.
var_dump(flock($a, LOCK_EX), flock($b, LOCK_EX | LOCK_NB, $wb), $wb, flock($a, LOCK_UN));
await(spawn(function () use ($a, $b, $path) {
    var_dump(flock($a, LOCK_SH), flock($b, LOCK_SH | LOCK_NB, $wb), $wb);
    var_dump(flock($b, LOCK_UN), flock($a, LOCK_EX));
    var_dump(flock($b, LOCK_EX | LOCK_NB, $wb), $wb);
    // A waiter cancelled while it waits: the cancellation propagates, the next waiter is served.
    $first = spawn(function () use ($path) {
        $h = fopen($path, 'r');
        flock($h, LOCK_EX);
        return 'first locked';
    });
    $second = spawn(function () use ($path) {
        $h = fopen($path, 'r');
        flock($h, LOCK_EX, $wb);
        return 'second locked ' . var_export($wb, true);
    });
    delay(30);
    $first->cancel();
    try {
        await($first);
    } catch (Async\AsyncCancellation $e) {
        echo "first cancelled\n";
    }
    flock($a, LOCK_UN);
    echo await($second), "\n";
    // An invalid operation is PHP's own ValueError.
    try {
        flock($a, 0);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}));
unlink($path);
?>
--EXPECT--
bool(true)
bool(false)
int(1)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(false)
int(1)
first cancelled
second locked 0
flock(): Argument #2 ($operation) must be one of LOCK_SH, LOCK_EX, or LOCK_UN
