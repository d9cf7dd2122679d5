--TEST--
Coroutines spinning on suspend() with no counted event do not starve hidden ones (a Pool's healthcheck timer, a Channel's soft no-producer timeout): the loop still runs them between batches, though nothing referenced keeps libuv's loop alive
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\{spawn, await, suspend};

$checks = 0;
$pool = new Pool(fn() => "conn", healthcheck: function () use (&$checks) { $checks++; return true; },
    min: 1, max: 1, healthcheckInterval: 1);

// Nothing counted is active: the only event in the loop is the pool's hidden periodic timer.
// Two spinners (so the batches hand off too) and main's await, until the healthcheck ran three
// times; the guard only ends a broken run (a starved timer never fires while they spin).
$spin = function (string $me) use (&$checks) {
    $deadline = hrtime(true) + 10_000_000_000;
    $passes = 0;
    while ($checks < 3) {
        suspend();
        $passes++;
        if (hrtime(true) > $deadline) {
            return "$me: starved after $passes passes";
        }
    }
    return "$me: saw the healthcheck run";
};
$a = spawn($spin, 'a');
$b = spawn($spin, 'b');
echo await($a), "\n", await($b), "\n";
var_dump($checks >= 3);

// The same with main itself spinning (main's turn polls on its own path).
$checks = 0;
$deadline = hrtime(true) + 10_000_000_000;
while ($checks < 3 && hrtime(true) < $deadline) {
    suspend();
}
var_dump($checks >= 3);
$pool->close();

// A receiver blocked on a channel whose soft (hidden) no-producer timer must close it while
// another coroutine spins.
$ch = new Async\Channel(0, noProducerTimeout: 5);
$closed = false;
$receiver = spawn(function () use ($ch, &$closed) {
    try {
        $ch->recv();
    } catch (Async\ChannelException $e) {
        echo "receiver: ", $e->reason->name, "\n";
    }
    $closed = true;
});
$spinner = spawn(function () use (&$closed) {
    $deadline = hrtime(true) + 10_000_000_000;
    while (!$closed && hrtime(true) < $deadline) {
        suspend();
    }
    return $closed ? "spinner: saw the channel close" : "spinner: the timer starved";
});
echo await($spinner), "\n";
await($receiver);
echo "done\n";
?>
--EXPECT--
a: saw the healthcheck run
b: saw the healthcheck run
bool(true)
bool(true)
receiver: NO_PRODUCERS
spinner: saw the channel close
done
