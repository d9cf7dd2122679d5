--TEST--
Channel: many producers and consumers; every value arrives exactly once (sum and count), buffered and rendezvous
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await, suspend, delay};

function run(int $capacity, int $producers, int $consumers, int $perProducer, bool $yield): void
{
    $ch = new Channel($capacity);
    $done = new Channel($producers);
    $seen = [];
    $ps = [];
    for ($p = 0; $p < $producers; $p++) {
        $ps[] = spawn(function () use ($ch, $done, $p, $perProducer, $yield) {
            for ($i = 0; $i < $perProducer; $i++) {
                $ch->send($p * $perProducer + $i);
                if ($yield && $i % 7 === 0) {
                    suspend();
                }
            }
            $done->send($p);
        });
    }
    // The last producer to finish closes the channel.
    $closer = spawn(function () use ($ch, $done, $producers) {
        for ($i = 0; $i < $producers; $i++) {
            $done->recv();
        }
        $ch->close();
    });
    $cs = [];
    for ($c = 0; $c < $consumers; $c++) {
        $cs[] = spawn(function () use ($ch, $yield) {
            $got = [];
            foreach ($ch as $v) {
                $got[] = $v;
                if ($yield && count($got) % 5 === 0) {
                    suspend();
                }
            }
            return $got;
        });
    }
    $all = [];
    foreach ($cs as $c) {
        $all = array_merge($all, await($c));
    }
    foreach ($ps as $p) {
        await($p);
    }
    await($closer);
    $n = $producers * $perProducer;
    $unique = count(array_unique($all));
    printf("cap=%d %dx%d: count=%d unique=%d sum=%s expected count=%d sum=%d\n",
        $capacity, $producers, $consumers, count($all), $unique,
        array_sum($all), $n, $n * ($n - 1) / 2);
}

run(0, 10, 10, 200, false);
run(0, 7, 3, 300, true);
run(1, 10, 10, 200, true);
run(16, 10, 10, 500, false);
run(16, 3, 11, 400, true);
run(1000, 5, 2, 1000, false);
?>
--EXPECT--
cap=0 10x10: count=2000 unique=2000 sum=1999000 expected count=2000 sum=1999000
cap=0 7x3: count=2100 unique=2100 sum=2203950 expected count=2100 sum=2203950
cap=1 10x10: count=2000 unique=2000 sum=1999000 expected count=2000 sum=1999000
cap=16 10x10: count=5000 unique=5000 sum=12497500 expected count=5000 sum=12497500
cap=16 3x11: count=1200 unique=1200 sum=719400 expected count=1200 sum=719400
cap=1000 5x2: count=5000 unique=5000 sum=12497500 expected count=5000 sum=12497500
