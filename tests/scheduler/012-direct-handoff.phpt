--TEST--
Direct hand-off keeps the run queue's order, yields to timers and I/O, and carries output buffers, errors and cancellations like a switch through the loop
--FILE--
<?php
use Async\{Channel, AsyncCancellation};
use function Async\{spawn, await, suspend, delay};

// 1. Order: three coroutines yielding in turn run round-robin, as the queue says.
$log = '';
$body = function (string $me) use (&$log) {
    for ($i = 0; $i < 200; $i++) {
        $log .= $me;
        suspend();
    }
};
$cs = [spawn($body, 'a'), spawn($body, 'b'), spawn($body, 'c')];
foreach ($cs as $c) {
    await($c);
}
var_dump($log === str_repeat('abc', 200));

// 2. A ping-pong that only a timer ends: hand-offs must not starve the reactor.
$stop = false;
$rounds = 0;
$pp = function () use (&$stop, &$rounds) {
    while (!$stop) {
        $rounds++;
        suspend();
    }
};
$x = spawn($pp);
$y = spawn($pp);
$t = spawn(function () use (&$stop) {
    delay(5);
    $stop = true;
});
await($t);
await($x);
await($y);
var_dump($stop, $rounds > 2);

// 3. I/O too: a socket reply reaches its reader while two others ping-pong.
[$l, $r] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$stop = false;
$x = spawn($pp);
$y = spawn($pp);
$reader = spawn(function () use ($r, &$stop) {
    $line = fgets($r);
    $stop = true;
    return $line;
});
spawn(function () use ($l) {
    suspend();
    fwrite($l, "pong\n");
});
var_dump(await($reader));
await($x);
await($y);

// 4. Output buffers travel with their coroutine across direct switches.
$a = spawn(function () {
    ob_start();
    echo 'a1';
    suspend();
    echo 'a2';
    suspend();
    return ob_get_clean();
});
$b = spawn(function () {
    ob_start();
    echo 'b1';
    suspend();
    echo 'b2';
    suspend();
    return ob_get_clean();
});
var_dump(await($a), await($b));

// 5. A cancellation delivered while the target sits at the head of the queue: the hand-off
// resumes it into the cancellation.
$ch = new Channel(0);
$victim = spawn(function () use ($ch) {
    try {
        $ch->recv();
        return 'received';
    } catch (AsyncCancellation $e) {
        return 'cancelled: ' . $e->getMessage();
    }
});
$killer = spawn(function () use ($victim) {
    suspend();                 // the victim parks in recv()
    $victim->cancel(new AsyncCancellation('stop'));
    suspend();                 // hands off to the victim, now due
    return 'done';
});
var_dump(await($victim), await($killer));

// 6. A first run reached by a hand-off, an exception out of a handed-to coroutine, a result.
$spawner = spawn(function () {
    $child = spawn(function () {
        throw new RuntimeException('from the child');
    });
    suspend();                 // the child is at the head: its first run is a hand-off
    try {
        await($child);
    } catch (RuntimeException $e) {
        return $e->getMessage();
    }
});
var_dump(await($spawner));

// 7. Values through rendezvous channels, 300 round trips, summed.
$ping = new Channel(0);
$pong = new Channel(0);
$p = spawn(function () use ($ping, $pong) {
    $sum = 0;
    for ($i = 1; $i <= 300; $i++) {
        $ping->send($i);
        $sum += $pong->recv();
    }
    $ping->close();
    return $sum;
});
$q = spawn(function () use ($ping, $pong) {
    foreach ($ping as $v) {
        $pong->send($v + 1);
    }
    return 'drained';
});
var_dump(await($p), await($q));

// 8. References: a chain that comes back to the coroutine it began with (A -> B -> A) gives
// back every queue reference it carried; nothing is left alive once the handles go.
$weak = [];
foreach ([$a, $b, $x, $y, $p, $q, $victim, $killer, $spawner, ...$cs] as $c) {
    $weak[] = WeakReference::create($c);
}
unset($a, $b, $x, $y, $p, $q, $victim, $killer, $spawner, $cs, $c, $t, $reader);
delay(1);
$alive = 0;
foreach ($weak as $w) {
    $alive += $w->get() !== null ? 1 : 0;
}
var_dump($alive);
echo "end\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(5) "pong
"
string(4) "a1a2"
string(4) "b1b2"
string(15) "cancelled: stop"
string(4) "done"
string(14) "from the child"
int(45450)
string(7) "drained"
int(0)
end
