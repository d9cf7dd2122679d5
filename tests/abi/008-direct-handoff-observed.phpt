--TEST--
Direct hand-off: a fiber observer sees coroutine -> coroutine switches, not a round trip through the scheduler's context per wake-up
--EXTENSIONS--
async_abi_test
--INI--
async.schedule_seed=0
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await, suspend};

// Warm-up: parked contexts exist, so even a first run can be handed to.
await(spawn(fn() => 1));

// Two coroutines ping-pong with suspend(): 1,000 round trips = 2,000 suspensions.
async_abi_test_switch_log(true);
$log = '';
$body = function (string $me) use (&$log) {
    for ($i = 0; $i < 1000; $i++) {
        $log .= $me;
        suspend();
    }
};
$a = spawn($body, 'a');
$b = spawn($body, 'b');
await($a);
await($b);
$s = async_abi_test_switch_log(false);
var_dump($log === str_repeat('ab', 1000));
// Through the loop it would be 0 direct and ~2,000 each way. A batch hands off at most 64 times
// before the loop polls the reactor, so some go through it.
var_dump($s['coroutine_to_coroutine'] >= 1800, $s['coroutine_to_other'] <= 200, $s['other_to_coroutine'] <= 200);
printf("suspend(): %s\n", $s['coroutine_to_coroutine'] > 10 * $s['coroutine_to_other'] ? 'mostly direct' : 'through the loop: ' . json_encode($s));

// A rendezvous channel ping-pong: each message wakes the peer, which runs next, directly.
async_abi_test_switch_log(true);
$ping = new Channel(0);
$pong = new Channel(0);
$p = spawn(function () use ($ping, $pong) {
    $sum = 0;
    for ($i = 1; $i <= 500; $i++) {
        $ping->send($i);
        $sum += $pong->recv();
    }
    return $sum;
});
$q = spawn(function () use ($ping, $pong) {
    for ($i = 1; $i <= 500; $i++) {
        $pong->send($ping->recv() * 2);
    }
});
var_dump(await($p));
await($q);
$s = async_abi_test_switch_log(false);
var_dump($s['coroutine_to_coroutine'] >= 900, $s['coroutine_to_other'] <= 100);

// Main is never handed to: it waits in the loop, which returns to it.
async_abi_test_switch_log(true);
$c = spawn(fn() => 42);
var_dump(await($c));
$s = async_abi_test_switch_log(false);
var_dump($s['coroutine_to_coroutine'], $s['other_to_coroutine'], $s['coroutine_to_other']);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
suspend(): mostly direct
int(250500)
bool(true)
bool(true)
int(42)
int(0)
int(1)
int(1)
