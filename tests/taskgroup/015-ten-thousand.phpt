--TEST--
TaskGroup: 10,000 tasks with concurrency 100 (default queue limit 200, so the producer waits): every result, never more than 100 at once
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
memory_limit=512M
--FILE--
<?php
use Async\TaskGroup;
use function Async\{delay, suspend, await};

$running = 0; $max = 0; $sum = 0; $full = false;
$g = new TaskGroup(100);
for ($i = 0; $i < 10000; $i++) {
    $g->spawn(function (int $i) use (&$running, &$max, &$full) {
        $running++;
        if ($running > $max) { $max = $running; }
        // The first tasks hold their slots until all 100 are taken: the limit is reached for sure.
        if ($running == 100) { $full = true; }
        while (!$full) { suspend(); }
        if ($i % 3 == 0) { suspend(); } elseif ($i % 3 == 1) { delay(1); }
        $running--;
        return $i;
    }, $i);
}
$g->close();
$g->awaitCompletion();
$results = $g->getResults();
foreach ($results as $k => $v) { if ($k !== $v) { echo "wrong result at $k\n"; } $sum += $v; }
var_dump(count($g), count($results), $sum === 10000 * 9999 / 2, $max, $running, count($g->getErrors()));

// The same through all() with a TaskSet, which ends empty.
$s = new Async\TaskSet(100, 0);
for ($i = 0; $i < 10000; $i++) { $s->spawn(fn() => 1); }
$r = await($s->joinAll());
var_dump(count($r), array_sum($r), count($s));
?>
--EXPECT--
int(10000)
int(10000)
bool(true)
int(100)
int(0)
int(0)
int(10000)
int(10000)
int(0)
