--TEST--
Reactor: timers due the same millisecond share a batch; wake order is start order, a stopped member never fires, batches are reused and closed
--FILE--
<?php
use function Async\{spawn, await, await_all, delay};

// 1. 300 coroutines started in order with non-decreasing delays: each is due no earlier than the
//    one before, so they must wake in start order (libuv's (due, start order) rule), whether they
//    share a batch (same millisecond) or not.
$order = [];
$cs = [];
for ($i = 0; $i < 300; $i++) {
    $cs[] = spawn(function () use ($i, &$order) {
        delay(2 + intdiv($i, 100));
        $order[] = $i;
    });
}
await_all($cs);
var_dump($order === range(0, 299));

// 2. A member of a batch cancelled before it falls due: its neighbours still fire, in order, and it
//    never does.
$order = [];
$bCancelled = false;
$a = spawn(function () use (&$order) { delay(30); $order[] = 'a'; });
$b = spawn(function () use (&$order, &$bCancelled) {
    try {
        delay(30);
        $order[] = 'b';
    } catch (\Cancellation $e) {
        $bCancelled = true;
    }
});
$c = spawn(function () use (&$order) { delay(30); $order[] = 'c'; });
delay(1); // all three are waiting now
$b->cancel();
await_all([$a, $b, $c]);
var_dump(implode(',', $order), $bCancelled);

// 3. A whole batch emptied by cancellation, then reused many times (parked batches are reused).
$cs = [];
for ($i = 0; $i < 50; $i++) {
    $cs[] = spawn(fn () => delay(10000));
}
delay(1);
foreach ($cs as $co) {
    $co->cancel();
}
[$results, $errors] = await_all($cs);
var_dump(count($errors));
$n = 0;
for ($round = 0; $round < 100; $round++) {
    $n += array_sum(await_all([spawn(fn () => delay(0) ?? 1), spawn(function () { delay(1); return 1; })])[0]);
}
var_dump($n);

// 4. 150 different deadlines armed at once (more batches than the 64 kept parked): all fire, in
//    deadline order.
$order = [];
$cs = [];
for ($i = 1; $i <= 150; $i++) {
    $cs[] = spawn(function () use ($i, &$order) { delay($i); $order[] = $i; });
}
await_all($cs);
var_dump($order === range(1, 150));

// 5. A timer armed by a coroutine woken by a batch, due that same millisecond (delay(0)), is a
//    new batch: everything still completes.
$hits = 0;
$cs = [];
for ($i = 0; $i < 20; $i++) {
    $cs[] = spawn(function () use (&$hits) { delay(1); delay(0); delay(1); $hits++; });
}
await_all($cs);
var_dump($hits);

// 6. exit() in a coroutine while others sleep in batches: they are cancelled, request shutdown
//    closes the batches cleanly.
for ($i = 0; $i < 10; $i++) {
    spawn(function () {
        try {
            delay(60000);
        } finally {
            echo "";
        }
    });
}
spawn(function () { delay(2); echo "end\n"; exit(0); });
delay(60000);
echo "not reached\n";
?>
--EXPECTF--
bool(true)
string(3) "a,c"
bool(true)
int(50)
int(200)
bool(true)
int(20)
end
