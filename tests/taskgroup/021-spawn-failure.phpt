--TEST--
TaskGroup: when a task's coroutine cannot be created (async.max_contexts), spawn() throws and the task is not kept
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.max_contexts=2
--FILE--
<?php
use Async\TaskGroup;
use function Async\delay;

$g = new TaskGroup();
$g->spawn(fn() => delay(5));
$g->spawnWithKey("second", fn() => delay(5));
try {
    $g->spawnWithKey("third", fn() => "never");
} catch (Async\AsyncException $e) {
    echo preg_replace('/\d+/', 'N', $e->getMessage()), "\n";
}
var_dump(count($g));
$g->close();
$g->awaitCompletion();
// Room again: the same key is free.
$h = new TaskGroup(1);
$h->spawnWithKey("third", fn() => "now");
$h->close();
$h->awaitCompletion();
var_dump($h->getResults(), count($g->getResults()));
?>
--EXPECT--
Cannot spawn a coroutine: N coroutines are alive, the limit is N (async.max_contexts)
int(2)
array(1) {
  ["third"]=>
  string(3) "now"
}
int(2)
