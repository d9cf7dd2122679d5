--TEST--
TaskGroup/TaskSet: a Scope given to the constructor as a temporary (new TaskGroup(scope: new Scope())) lives as long as the group: its tasks run to their end (issue #39 item 10)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{TaskGroup, TaskSet, Scope};
use function Async\{spawn, await, suspend};

$g = new TaskGroup(scope: new Scope());
$g->spawn(function () { suspend(); return 'group task done'; });
gc_collect_cycles();
var_dump(await($g->all()));

$s = new TaskSet(scope: new Scope());
$s->spawn(function () { suspend(); return 'set task done'; });
gc_collect_cycles();
var_dump(await($s->joinNext()));

// The group's end lets the scope go: nothing is left behind.
$g = null;
$s = null;
gc_collect_cycles();
echo "end\n";
?>
--EXPECT--
array(1) {
  [0]=>
  string(15) "group task done"
}
string(13) "set task done"
end
