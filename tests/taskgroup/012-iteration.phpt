--TEST--
TaskGroup: foreach yields key => [result, null] | [null, error] in settle order, suspends for the next task, ends when closed and drained; it does not consume
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\TaskGroup;
use function Async\{delay, spawn, await};

$g = new TaskGroup();
$g->spawnWithKey("c", function () { delay(30); return "third"; });
$g->spawnWithKey("a", function () { delay(5); return "first"; });
$g->spawnWithKey("b", function () { delay(15); throw new RuntimeException("second fails"); });
// Close later, from elsewhere, after one more task: iteration waits for it too.
spawn(function () use ($g) {
    delay(40);
    $g->spawnWithKey("d", function () { delay(5); return "fourth"; });
    $g->close();
});
foreach ($g as $key => [$result, $error]) {
    echo $key, " => ", $error ? "error " . $error->getMessage() : "result $result", "\n";
}
echo "drained, count=", count($g), "\n";

// A second iteration of a closed group replays everything at once; keys are kept.
$seen = [];
foreach ($g as $key => $pair) { $seen[] = $key; }
echo implode(",", $seen), "\n";

// getIterator() is the same thing as an object.
$it = $g->getIterator();
var_dump($it instanceof Iterator);
$it->rewind();
var_dump($it->key(), $it->current());

// Iterating in a coroutine while the main flow waits.
$h = new TaskGroup(2);
$ms = [30, 10, 40, 5, 3]; // with 2 slots they end at 10 (1), 30 (0), 35 (3), 38 (4), 50 (2)
for ($i = 0; $i < 5; $i++) { $h->spawn(function ($i) use ($ms) { delay($ms[$i]); return $i; }, $i); }
$h->close();
$reader = spawn(function () use ($h) { $keys = []; foreach ($h as $k => [$r]) { $keys[] = "$k:$r"; } return implode(" ", $keys); });
var_dump(await($reader));

try { foreach ($g as &$ref) {} } catch (Error $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
a => result first
b => error second fails
c => result third
d => result fourth
drained, count=4
a,b,c,d
bool(true)
string(1) "a"
array(2) {
  [0]=>
  string(5) "first"
  [1]=>
  NULL
}
string(19) "1:1 0:0 3:3 4:4 2:2"
An iterator cannot be used with foreach by reference
