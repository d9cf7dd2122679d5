--TEST--
TaskGroup: foreach yields key => [result, null] | [null, error] in settle order, suspends for the next task, ends when closed and drained; it does not consume
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/gates.inc';
use Async\TaskGroup;
use function Async\{delay, spawn, await};

$gates = new Gates();
$g = new TaskGroup();
$g->spawnWithKey("c", function () use ($gates) { $gates->wait("c"); return "third"; });
$g->spawnWithKey("a", function () use ($gates) { $gates->wait("a"); return "first"; });
$g->spawnWithKey("b", function () use ($gates) { $gates->wait("b"); throw new RuntimeException("second fails"); });
// Another coroutine settles them in the order a, b, c, then adds one more task and closes the
// group: the iteration waits for each.
spawn(function () use ($g, $gates) {
    $gates->release("a", "b", "c");
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

// Iterating in a coroutine while the main flow waits; with 2 slots, tasks start as others end.
$h = new TaskGroup(2);
for ($i = 0; $i < 5; $i++) { $h->spawn(function ($i) use ($gates) { $gates->wait("h$i"); return $i; }, $i); }
$h->close();
$reader = spawn(function () use ($h) { $keys = []; foreach ($h as $k => [$r]) { $keys[] = "$k:$r"; } return implode(" ", $keys); });
$gates->release("h1", "h0", "h3", "h4", "h2");
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
