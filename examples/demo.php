<?php
/*
 * ext-async demo: plain PHP made concurrent with spawn() and await().
 * Run: scripts/demo.sh   (or: php -d extension=modules/async.so examples/demo.php)
 */
use function Async\{spawn, await, delay};

function elapsed(float $since): string
{
    return sprintf('%4d ms', round((microtime(true) - $since) * 1000));
}

echo "1. Two coroutines that each wait 100 ms finish together:\n";
$t = microtime(true);
$a = spawn(function () { delay(100); return 'a'; });
$b = spawn(function () { delay(100); return 'b'; });
echo '   ', await($a), await($b), ' in ', elapsed($t), " (not 200)\n\n";

echo "2. Ten 'requests' of 50-150 ms each, with plain usleep(), run side by side:\n";
$t = microtime(true);
$jobs = [];
foreach (range(1, 10) as $i) {
    $jobs[$i] = spawn(function (int $i) use ($t) {
        usleep(random_int(50, 150) * 1000);   // suspends only this coroutine
        return "job $i done at " . elapsed($t);
    }, $i);
}
foreach ($jobs as $job) {
    echo '   ', await($job), "\n";
}
echo '   all ten in ', elapsed($t), " (sequentially they would take about a second)\n\n";

echo "3. Errors travel to whoever awaits:\n";
$failing = spawn(function () { delay(10); throw new RuntimeException('upstream timed out'); });
try {
    await($failing);
} catch (RuntimeException $e) {
    echo '   caught: ', $e->getMessage(), "\n\n";
}

echo "4. Cancellation is delivered at the next suspension point, finally blocks run:\n";
$worker = spawn(function () {
    try {
        delay(10_000);
    } finally {
        echo "   worker cleaned up\n";
    }
});
delay(5);
$worker->cancel();
try {
    await($worker);
} catch (Async\AsyncCancellation $e) {
    echo '   worker: ', $e->getMessage(), "\n\n";
}

echo "5. 10,000 coroutines, each sleeping 10 ms:\n";
$t = microtime(true);
$all = [];
for ($i = 0; $i < 10_000; $i++) {
    $all[] = spawn(function (int $i) { delay(10); return $i; }, $i);
}
$sum = 0;
foreach ($all as $c) {
    $sum += await($c);
}
echo '   sum = ', $sum, ' in ', elapsed($t), "\n";
