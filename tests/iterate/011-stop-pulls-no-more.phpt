--TEST--
iterate(): a callback returning false or throwing stops the pulling at once: no further element is taken from the source, with or without a limit
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{iterate, suspend};

$pulled = 0;
$gen = function () use (&$pulled) {
    for ($i = 1; $i <= 10; $i++) {
        $pulled++;
        yield $i;
    }
};

/* false, no limit */
$pulled = 0;
$seen = [];
iterate($gen(), function ($v) use (&$seen) { $seen[] = $v; return $v === 2 ? false : null; });
echo "false, no limit: pulled $pulled, handled ", implode(',', $seen), "\n";

/* a throw, limit 2 */
$pulled = 0;
$seen = [];
try {
    iterate($gen(), function ($v) use (&$seen) {
        $seen[] = $v;
        if ($v === 3) {
            throw new RuntimeException("failed at $v");
        }
    }, 2);
} catch (RuntimeException $e) {
    echo "throw, limit 2: ", $e->getMessage(), ", pulled $pulled, handled ", implode(',', $seen), "\n";
}

/* false while another callback is suspended: the suspended one finishes, nothing more is pulled */
$pulled = 0;
$seen = [];
$stopped = false;
iterate($gen(), function ($v) use (&$seen, &$stopped) {
    if ($v === 1) {
        while (!$stopped) {
            suspend();
        }
        $seen[] = "1 finished";
        return;
    }
    $seen[] = $v;
    if ($v === 3) {
        $stopped = true;
        return false;
    }
});
echo "false while one is suspended: pulled $pulled, handled ", implode(',', $seen), "\n";

/* a throw while another callback is suspended */
$pulled = 0;
try {
    iterate($gen(), function ($v) {
        if ($v === 1) {
            suspend();
            return;
        }
        throw new LogicException("failed at $v");
    }, 4);
} catch (LogicException $e) {
    echo "throw while one is suspended: ", $e->getMessage(), ", pulled $pulled\n";
}
?>
--EXPECT--
false, no limit: pulled 2, handled 1,2
throw, limit 2: failed at 3, pulled 3, handled 1,2,3
false while one is suspended: pulled 3, handled 2,3,1 finished
throw while one is suspended: failed at 2, pulled 2
