--TEST--
Channel foreach ends quietly only after an explicit close(); a channel closed by a producer timeout or by the deadlock layer throws its ChannelException from the loop
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await, delay};

function drain(Channel $ch, string $label): void {
    try {
        foreach ($ch as $k => $v) { echo "$label: got $k => $v\n"; }
        echo "$label: ended quietly\n";
    } catch (Async\ChannelException $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), " (", $e->reason->name, ")\n";
    }
}

// 1. Explicit close(): buffered values are drained, then the loop ends without an exception.
$a = new Channel(4);
$a->send("x");
$a->send("y");
$a->close();
drain($a, "explicit");

// 2. Closed because no producer sent for 20 ms (a ticker keeps the program alive meanwhile).
$stop = false;
$ticker = spawn(function () use (&$stop) { while (!$stop) { delay(5); } });
$b = new Channel(4, 20);
spawn(function () use ($b) { $b->send(1); });
drain($b, "timeout");
$stop = true;
await($ticker);

// 3. Closed by the deadlock layer: main is the only one left, waiting in the loop.
$c = new Channel(4, 60000);
spawn(function () use ($c) { $c->send(1); });
drain($c, "deadlock");

// 4. The same in a coroutine.
$d = new Channel(4, 60000);
await(spawn(fn() => drain($d, "deadlock in coroutine")));
echo "done\n";
?>
--EXPECT--
explicit: got 0 => x
explicit: got 1 => y
explicit: ended quietly
timeout: got 0 => 1
timeout: Async\ChannelException: Channel deadlock: no producers (NO_PRODUCERS)
deadlock: got 0 => 1
deadlock: Async\ChannelException: Channel deadlock (DEADLOCK)
deadlock in coroutine: Async\ChannelException: Channel deadlock (DEADLOCK)
done
