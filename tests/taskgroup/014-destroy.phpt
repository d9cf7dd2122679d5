--TEST--
TaskGroup destroyed while busy: running coroutines (and what they spawned) are cancelled, queued tasks never start, pending futures fail
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{TaskGroup, AsyncCancellation};
use function Async\{delay, spawn, await};

$all = null;
$log = [];
function busy(&$all) {
    $g = new TaskGroup(2, 1);
    for ($i = 0; $i < 2; $i++) {
        $g->spawn(function ($i) {
            spawn(function () use ($i) { try { delay(1000); } catch (AsyncCancellation $e) { $GLOBALS['log'][] = "spawned by task $i: " . $e->getMessage(); } });
            try { delay(1000); } catch (AsyncCancellation $e) { $GLOBALS['log'][] = "task $i: " . $e->getMessage(); throw $e; }
        }, $i);
    }
    $g->spawn(function () { echo "queued task runs\n"; });
    $all = $g->all();
    delay(5);
    echo "leaving\n";
}
busy($all);
try { await($all); } catch (AsyncCancellation $e) { echo "all(): ", get_class($e), ": ", $e->getMessage(), "\n"; }
delay(5);

sort($log);
echo implode("\n", $log), "\n";
echo "end of script\n";
?>
--EXPECT--
leaving
all(): Async\AsyncCancellation: Scope is being disposed due to TaskGroup destruction
spawned by task 0: Scope is being disposed due to TaskGroup destruction
spawned by task 1: Scope is being disposed due to TaskGroup destruction
task 0: Scope is being disposed due to TaskGroup destruction
task 1: Scope is being disposed due to TaskGroup destruction
end of script
