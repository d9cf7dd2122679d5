--TEST--
virtual_time(): timers at the same instant fire in creation order; timeout() and channel timeouts fire on virtual time; pending real I/O holds the clock (a reply 200 ms away arrives before a 1 s virtual timer); a coroutine outside the bubble holds it too
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await, delay, timeout};
use function Async\Testing\virtual_time;

/* order: by instant, then by creation */
echo implode(' ', virtual_time(function () {
    $log = [];
    $t0 = hrtime(true);
    $at = function (string $what) use (&$log, $t0) { $log[] = $what . '@' . intdiv(hrtime(true) - $t0, 1000000); };
    $cs = [];
    $cs[] = spawn(function () use ($at) { delay(30); $at('a'); delay(30); $at('a2'); });
    $cs[] = spawn(function () use ($at) { delay(60); $at('b'); });
    $cs[] = spawn(function () use ($at) { delay(30); $at('c'); });
    foreach (range(1, 3) as $i) {
        $cs[] = spawn(function () use ($at, $i) { delay(10); $at("same$i"); });
    }
    usleep(45000); $at('root');
    foreach ($cs as $c) { await($c); }
    return $log;
})), "\n";

/* timeout() and channel timeouts */
echo virtual_time(function () {
    $t0 = hrtime(true);
    try {
        await(spawn(fn() => delay(10000)), timeout(2500));
    } catch (Async\OperationCanceledException $e) {
        $a = get_class($e->getPrevious()) . ' after ' . intdiv(hrtime(true) - $t0, 1000000) . ' ms';
    }
    $t0 = hrtime(true);
    try {
        (new Channel())->recv(timeout(750));
    } catch (Throwable $e) {
        $b = get_class($e) . ' after ' . intdiv(hrtime(true) - $t0, 1000000) . ' ms';
    }
    $t0 = hrtime(true);
    try {
        (new Channel(0, noProducerTimeout: 1200, hardTimeouts: true))->recv();
    } catch (Throwable $e) {
        $c = get_class($e) . ' after ' . intdiv(hrtime(true) - $t0, 1000000) . ' ms';
    }
    return "$a; $b; $c";
}), "\n";

/* real I/O holds the clock */
[$near, $far] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$writer = spawn(function () use ($far) { delay(200); fwrite($far, "reply\n"); }); // outside: real time
$t = hrtime(true);
echo implode(' ', virtual_time(function () use ($near) {
    $log = [];
    $t0 = hrtime(true);
    $r = spawn(function () use ($near, &$log, $t0) { $l = trim(fgets($near)); $log[] = "$l@" . intdiv(hrtime(true) - $t0, 1000000); });
    $d = spawn(function () use (&$log, $t0) { delay(1000); $log[] = 'timer@' . intdiv(hrtime(true) - $t0, 1000000); });
    await($r); await($d);
    return $log;
})), "\n";
$ms = (hrtime(true) - $t) / 1e6;
echo "took the reply's real time: ", var_export($ms >= 190, true), "\n";
await($writer);

/* a coroutine outside the bubble holds it the same way */
$outside = spawn(function () { delay(100); return 'outside done'; });
echo virtual_time(function () use ($outside) {
    $t0 = hrtime(true);
    $d = spawn(function () use ($t0) { delay(5000); return intdiv(hrtime(true) - $t0, 1000000); });
    $o = await($outside);
    return "$o at virtual " . intdiv(hrtime(true) - $t0, 1000000) . ", timer at " . await($d);
}), "\n";
?>
--EXPECTF--
same1@10 same2@10 same3@10 a@30 c@30 root@45 b@60 a2@60
Async\TimeoutException after 2500 ms; Async\OperationCanceledException after 750 ms; Async\ChannelException after 1200 ms
reply@0 timer@1000
took the reply's real time: true
outside done at virtual 0, timer at 5000
