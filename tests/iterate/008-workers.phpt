--TEST--
iterate() with a concurrency limit runs the callbacks in at most that many worker coroutines, each taking the next element when it finished one; false or an exception stops the elements not yet pulled; without a limit a worker is added whenever all of them are suspended (here: one per element)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{iterate, current_coroutine, delay};

/* 7 elements, concurrency 3: 3 coroutines do all the work, never more than 3 at once */
$ids = [];
$running = $most = 0;
iterate(range(1, 7), function ($v) use (&$ids, &$running, &$most) {
    $most = max($most, ++$running);
    $ids[current_coroutine()->getId()][] = $v;
    for ($i = 0; $i <= $v % 3; $i++) {
        Async\suspend();
    }
    $running--;
}, 3);
echo count($ids), " workers, at most $most at once, ", array_sum(array_map('count', $ids)), " elements\n";

/* a worker keeps its coroutine across elements: what it put in its context is still there */
$seen = [];
iterate(['a', 'b', 'c', 'd'], function ($v) use (&$seen) {
    $ctx = Async\current_context();
    $seen[] = ($ctx->find('last') ?? '-') . ">$v";
    $ctx->set('last', $v, true);
}, 1);
echo implode(' ', $seen), "\n";

/* false stops: the generator is not pulled past what the workers had taken */
$gen = function () {
    for ($i = 1; $i <= 10; $i++) {
        echo "pull $i\n";
        yield $i;
    }
};
$done = [];
iterate($gen(), function ($v) use (&$done) {
    $done[] = $v;
    return $v === 2 ? false : null;
}, 1);
echo "done ", implode(',', $done), "\n";

/* an exception stops it too, at once (no element is pulled after it), and is what iterate() throws */
try {
    iterate($gen(), function ($v) {
        if ($v === 3) {
            throw new RuntimeException("element $v failed");
        }
    }, 2);
} catch (RuntimeException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

/* no limit: while every callback stays suspended, one coroutine per element */
$ids = [];
iterate(range(1, 5), function ($v) use (&$ids) {
    $ids[current_coroutine()->getId()] = true;
    while (count($ids) < 5) {
        Async\suspend();
    }
});
echo count($ids), " coroutines for 5 elements without a limit\n";
?>
--EXPECT--
3 workers, at most 3 at once, 7 elements
->a a>b b>c c>d
pull 1
pull 2
done 1,2
pull 1
pull 2
pull 3
RuntimeException: element 3 failed
5 coroutines for 5 elements without a limit
