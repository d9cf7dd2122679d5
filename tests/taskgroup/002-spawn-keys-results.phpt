--TEST--
TaskGroup: spawn() with arguments, auto-increment keys like array append, spawnWithKey(), duplicate keys, getResults()/getErrors()
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\TaskGroup;
use function Async\delay;

function add(int $a, int $b = 0, int $c = 0) { return $a + $b + $c; }

$g = new TaskGroup();
var_dump($g->spawn('add', 1, 2));           // key 0; spawn() returns nothing
$g->spawn('add', 10, c: 5);                 // named arguments: key 1
$g->spawnWithKey(7, fn() => "seven");
$g->spawn(fn() => "after 7");               // next integer key: 8
$g->spawnWithKey("name", fn() => "named");
$g->spawnWithKey("3", fn() => "numeric string is int 3");
$g->spawn(fn() => "next");                  // 9: used int keys are skipped like array append
$g->spawnWithKey(-5, fn() => "negative");
$g->spawnWithKey("", fn() => "empty key");
$g->spawnWithKey("boom", function () { delay(1); throw new LogicException("failed task"); });
$g->spawn(new class { function __invoke($x) { return "invokable $x"; } }, "arg");

// Duplicates are refused, whatever the key's spelling.
foreach ([7, "7", "name", 0, ""] as $dup) {
    try { $g->spawnWithKey($dup, fn() => 1); } catch (Async\AsyncException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
}
var_dump(count($g));

// Arguments are copied at spawn time.
$arr = [1, 2];
$g->spawnWithKey("copy", fn($a) => $a, $arr);
$arr[] = 3;

$g->close();
$g->awaitCompletion();
var_dump($g->getResults());
foreach ($g->getErrors() as $k => $e) { echo "error[$k]: ", get_class($e), ": ", $e->getMessage(), "\n"; }
var_dump(count($g), $g->isFinished());

// Auto keys follow array append exactly, up to its limit.
$edge = new TaskGroup();
$edge->spawnWithKey(PHP_INT_MAX - 1, fn() => "a");
$edge->spawn(fn() => "b");
try { $edge->spawn(fn() => "c"); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }
$neg = new TaskGroup();
$neg->spawnWithKey(-5, fn() => 1);
$neg->spawn(fn() => 2);
$arr = [PHP_INT_MAX - 1 => 1];
$arr[] = 2;
$ref = [-5 => 1];
$ref[] = 2;
foreach ([$edge, $neg] as $x) { $x->close(); $x->awaitCompletion(); }
var_dump(array_keys($edge->getResults()) === array_keys($arr), array_keys($neg->getResults()) === array_keys($ref));

// Bad callables are ZPP errors.
try { (new TaskGroup())->spawn("no_such_function"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { (new TaskGroup())->spawnWithKey(1.5, fn() => 1); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { (new TaskGroup())->spawnWithKey([], fn() => 1); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECTF--
NULL
Async\AsyncException: Duplicate key 7 in TaskGroup
Async\AsyncException: Duplicate key 7 in TaskGroup
Async\AsyncException: Duplicate key "name" in TaskGroup
Async\AsyncException: Duplicate key 0 in TaskGroup
Async\AsyncException: Duplicate key "" in TaskGroup
int(11)
array(11) {
  [0]=>
  int(3)
  [1]=>
  int(15)
  [7]=>
  string(5) "seven"
  [8]=>
  string(7) "after 7"
  ["name"]=>
  string(5) "named"
  [3]=>
  string(23) "numeric string is int 3"
  [9]=>
  string(4) "next"
  [-5]=>
  string(8) "negative"
  [""]=>
  string(9) "empty key"
  [10]=>
  string(13) "invokable arg"
  ["copy"]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
}
error[boom]: LogicException: failed task
int(12)
bool(true)
Cannot add a task to the TaskGroup: no free integer key
bool(true)
bool(true)
Async\TaskGroup::spawn(): Argument #1 ($task) must be a valid callback, function "no_such_function" not found or invalid function name

Deprecated: Implicit conversion from float 1.5 to int loses precision in %s on line %d
Async\TaskGroup::spawnWithKey(): Argument #1 ($key) must be of type string|int, array given
