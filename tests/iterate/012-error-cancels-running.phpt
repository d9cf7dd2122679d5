--TEST--
iterate(): an error cancels the callbacks still running instead of waiting for them: they see an AsyncCancellation, and the caller gets the error before they could have finished
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\AsyncCancellation;
use function Async\{iterate, spawn, suspend};

foreach ([0, 3] as $limit) {
    $log = [];
    $ticks = 0;
    /* would let the suspended callbacks finish after 50 ticks */
    $ticker = spawn(function () use (&$ticks) {
        while (++$ticks < 50) {
            suspend();
        }
    });
    try {
        iterate(['a', 'b', 'c'], function ($v) use (&$log, &$ticks) {
            if ($v === 'c') {
                suspend(); // a and b are suspended by now
                throw new RuntimeException("failed at $v");
            }
            try {
                while ($ticks < 50) {
                    suspend();
                }
                $log[] = "$v finished";
            } catch (AsyncCancellation $e) {
                $log[] = "$v: " . get_class($e);
            }
        }, $limit);
    } catch (RuntimeException $e) {
        $log[] = "caller: " . $e->getMessage() . ($ticks < 50 ? " (before the ticker ended)" : " (after the ticker ended)");
    }
    Async\await($ticker);
    sort($log); // the order in which the cancelled callbacks resume is not the point
    echo "concurrency $limit: ", implode(', ', $log), "\n";
}

/* A source that throws cancels the running callbacks too. */
$log = [];
$gen = function () {
    yield 1;
    suspend(); // the callback of 1 is suspended by now
    throw new DomainException("source failed");
};
try {
    iterate($gen(), function ($v) use (&$log) {
        try {
            for ($i = 0; $i < 50; $i++) {
                suspend();
            }
            $log[] = "$v finished";
        } catch (AsyncCancellation $e) {
            $log[] = "$v: " . get_class($e);
        }
    });
} catch (DomainException $e) {
    $log[] = "caller: " . $e->getMessage();
}
echo "source: ", implode(', ', $log), "\n";
?>
--EXPECT--
concurrency 0: a: Async\AsyncCancellation, b: Async\AsyncCancellation, caller: failed at c (before the ticker ended)
concurrency 3: a: Async\AsyncCancellation, b: Async\AsyncCancellation, caller: failed at c (before the ticker ended)
source: 1: Async\AsyncCancellation, caller: source failed
