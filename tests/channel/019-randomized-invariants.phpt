--TEST--
Channel: randomized send/sendAsync/recv with tokens, cancellations and close: a value arrives at most once, exactly when its send succeeded
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.schedule_seed=4242
--FILE--
<?php
use Async\{Channel, ChannelException, AsyncCancellation};
use function Async\{spawn, await, delay, suspend};

function token(): Async\Coroutine
{
    return spawn(function () { mt_rand(0, 1) ? delay(mt_rand(0, 2)) : suspend(); });
}

function round_trip(int $seed, int $capacity): string
{
    mt_srand($seed);
    $ch = new Channel($capacity);
    $delivered = [];   // id => true: send() returned or sendAsync() said true
    $failed = [];      // id => true: send() threw or sendAsync() said false
    $received = [];    // id => times
    $producers = [];
    for ($p = 0; $p < 8; $p++) {
        $producers[] = spawn(function () use ($ch, $p, &$delivered, &$failed) {
            for ($i = 0; $i < 60; $i++) {
                $id = $p * 1000 + $i;
                $mode = mt_rand(0, 5);
                try {
                    if ($mode === 0) {
                        $ok = $ch->sendAsync($id);
                    } elseif ($mode === 1) {
                        $ch->send($id, token());
                        $ok = true;
                    } else {
                        $ch->send($id);
                        $ok = true;
                    }
                } catch (AsyncCancellation $e) {
                    $failed[$id] = true;
                    if (!($e instanceof Async\OperationCanceledException)) {
                        throw $e;       // the producer itself was cancelled: stop
                    }
                    continue;
                }
                if ($ok) { $delivered[$id] = true; } else { $failed[$id] = true; }
                if (mt_rand(0, 6) === 0) { suspend(); }
            }
        });
    }
    $consumers = [];
    for ($c = 0; $c < 6; $c++) {
        $consumers[] = spawn(function () use ($ch, &$received) {
            for (;;) {
                try {
                    $v = mt_rand(0, 3) === 0 ? $ch->recv(token()) : $ch->recv();
                    $received[$v] = ($received[$v] ?? 0) + 1;
                } catch (Async\OperationCanceledException $e) {
                    continue;
                } catch (ChannelException $e) {
                    return;
                }
                if (mt_rand(0, 4) === 0) { mt_rand(0, 1) ? suspend() : delay(1); }
            }
        });
    }
    // Chaos: cancel a few producers and two consumers (the others keep consuming).
    $chaos = spawn(function () use ($producers, $consumers) {
        for ($k = 0; $k < 6; $k++) {
            delay(mt_rand(0, 3));
            $producers[mt_rand(0, count($producers) - 1)]->cancel();
        }
        $consumers[0]->cancel();
        $consumers[1]->cancel();
    });
    foreach ($producers as $p) {
        try { await($p); } catch (AsyncCancellation $e) {}
    }
    await($chaos);
    $ch->close();
    foreach ($consumers as $c) {
        try { await($c); } catch (AsyncCancellation $e) {}
    }
    // Whatever the surviving consumers left is still there to drain.
    foreach ($ch as $v) {
        $received[$v] = ($received[$v] ?? 0) + 1;
    }

    $twice = array_filter($received, fn($n) => $n > 1);
    $lost = array_diff_key($delivered, $received);
    $ghost = array_diff_key($received, $delivered);
    $both = array_intersect_key($delivered, $failed);
    return sprintf("cap %d: delivered %s, twice %d, lost %d, ghost %d, both %d",
        $capacity, count($delivered) > 0 ? "some" : "none", count($twice), count($lost), count($ghost), count($both));
}

foreach ([[1, 0], [2, 1], [3, 4], [4, 0], [5, 2], [6, 16]] as [$seed, $cap]) {
    echo round_trip($seed, $cap), "\n";
}
?>
--EXPECT--
cap 0: delivered some, twice 0, lost 0, ghost 0, both 0
cap 1: delivered some, twice 0, lost 0, ghost 0, both 0
cap 4: delivered some, twice 0, lost 0, ghost 0, both 0
cap 0: delivered some, twice 0, lost 0, ghost 0, both 0
cap 2: delivered some, twice 0, lost 0, ghost 0, both 0
cap 16: delivered some, twice 0, lost 0, ghost 0, both 0
