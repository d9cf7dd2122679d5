--TEST--
Direct hand-off at a coroutine's end: B finishing wakes A, which awaited it, and B's worker switches straight into A (observed with a fiber observer); results, destructors and cancellation unchanged
--EXTENSIONS--
async_abi_test
--INI--
async.schedule_seed=0
--FILE--
<?php
use function Async\{spawn, await, suspend, current_coroutine};

final class Payload
{
    public static array $log = [];
    public function __construct(public int $n) {}
    public function __destruct() { self::$log[] = "free {$this->n}"; }
}

// Warm-up: parked contexts exist.
await(spawn(fn() => 1));

// A awaits 500 children one after the other. Each round: A -> B (spawn's hand-off, B's first
// run), B ends -> A (the hand-off at its end). Through the loop the second would be
// B -> loop -> A: one coroutine_to_other and one other_to_coroutine per round.
async_abi_test_switch_log(true);
$a = spawn(function () {
    $sum = 0;
    for ($i = 1; $i <= 500; $i++) {
        $sum += await(spawn(fn() => $i * 2));
    }
    return $sum;
});
var_dump(await($a));
$s = async_abi_test_switch_log(false);
// 1,000 direct switches per 500 rounds; a batch makes at most 64 hand-offs, then the loop polls.
var_dump($s['coroutine_to_coroutine'] >= 900, $s['coroutine_to_other'] <= 60, $s['other_to_coroutine'] <= 60);
printf("ends: %s\n", $s['coroutine_to_coroutine'] > 10 * $s['coroutine_to_other'] ? 'mostly direct' : 'through the loop: ' . json_encode($s));

// The value a child returns is A's; the child's own copy goes when the child's object does.
$b = spawn(function () {
    $kept = [];
    for ($i = 1; $i <= 3; $i++) {
        $child = spawn(fn() => new Payload($i));
        $p = await($child);
        Payload::$log[] = "got {$p->n}";
        $kept[] = $p;
        unset($child, $p); // the child's handle goes: its result copy with it
    }
    Payload::$log[] = 'dropping';
    $kept = [];
    Payload::$log[] = 'dropped';
    return 'done';
});
var_dump(await($b));
echo implode(', ', Payload::$log), "\n";
Payload::$log = [];

// A child whose only handle is the awaiter's temporary: its result object is destroyed once the
// await() returned and the value is gone, never on the child's parked stack while A runs.
$c = spawn(function () {
    $n = 0;
    for ($i = 1; $i <= 100; $i++) {
        $n += await(spawn(fn() => new Payload($i)))->n;
    }
    return $n;
});
var_dump(await($c), count(Payload::$log));
Payload::$log = [];

// A child nobody holds (its handle dropped at once) ends while another coroutine is queued next:
// the runtime's reference is the child's last, so the child (and its result) is freed in the
// loop before that coroutine runs, as without the hand-off; it is not handed to.
Payload::$log = [];
$ch = new Async\Channel();
$f = spawn(function () use ($ch) {
    Payload::$log[] = 'f waits';
    $ch->recv();
    Payload::$log[] = 'f resumed';
});
suspend();                         // $f runs until it parks in recv()
spawn(fn() => new Payload(9));     // queued first, its handle gone
$ch->send('go');                   // $f is queued behind it
await($f);
echo implode(', ', Payload::$log), "\n";
Payload::$log = [];

// A child that throws: the awaiter gets the exception, right after the child's end.
$d = spawn(function () {
    $caught = 0;
    for ($i = 0; $i < 50; $i++) {
        try {
            await(spawn(function () use ($i) { throw new RuntimeException("boom $i"); }));
        } catch (RuntimeException $e) {
            $caught += $e->getMessage() === "boom $i" ? 1 : 0;
        }
    }
    return $caught;
});
var_dump(await($d));

// The awaiter is cancelled while the child runs: the child's end does not resume it as if it
// had been woken by the result; it sees the cancellation.
$victim = null;
$e = spawn(function () use (&$victim) {
    $victim = current_coroutine();
    try {
        await(spawn(function () use (&$victim) {
            $victim->cancel(new Async\AsyncCancellation('stop'));
            return 'late';
        }));
        return 'not cancelled';
    } catch (Async\AsyncCancellation $ex) {
        return 'cancelled: ' . $ex->getMessage();
    }
});
var_dump(await($e));

// Two awaiters of one child: both woken by its end, in the order they began to wait.
$order = [];
$child = spawn(function () { suspend(); return 7; });
$w1 = spawn(function () use ($child, &$order) { $order[] = 'w1:' . await($child); });
$w2 = spawn(function () use ($child, &$order) { $order[] = 'w2:' . await($child); });
await($w1);
await($w2);
echo implode(' ', $order), "\n";
?>
--EXPECT--
int(250500)
bool(true)
bool(true)
bool(true)
ends: mostly direct
string(4) "done"
got 1, got 2, got 3, dropping, free 1, free 2, free 3, dropped
int(5050)
int(100)
f waits, free 9, f resumed
int(50)
string(15) "cancelled: stop"
w1:7 w2:7
