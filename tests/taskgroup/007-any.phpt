--TEST--
TaskGroup::any(): the first success; errors skipped; all failed rejects with CompositeException; empty group throws
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/gates.inc';
use Async\{TaskGroup, CompositeException};
use function Async\{delay, await};

$gates = new Gates();
$g = new TaskGroup();
$g->spawn(function () use ($gates) { $gates->wait("e1"); throw new RuntimeException("e1"); });
$g->spawn(function () use ($gates) { $gates->wait("winner"); return "winner"; });
$g->spawn(function () use ($gates) { $gates->wait("too late"); return "too late"; });
$f = $g->any();
$gates->release("e1");
var_dump($f->isCompleted());
$gates->release("winner", "too late");
var_dump($f->isCompleted(), await($f));
// A success is already there: any() completes at once.
$again = $g->any();
var_dump($again->isCompleted(), await($again));
unset($g); // any() observed the error: destroying the group reports nothing

// Everything fails: CompositeException with every error by key.
$bad = new TaskGroup();
$bad->spawnWithKey("a", function () use ($gates) { $gates->wait("A"); throw new LogicException("A"); });
$bad->spawnWithKey("b", function () use ($gates) { $gates->wait("B"); throw new RuntimeException("B"); });
$pending = $bad->any();
$gates->release("B", "A");
try { await($pending); } catch (CompositeException $ce) {
    echo $ce->getMessage(), "\n";
    foreach ($ce->getExceptions() as $k => $ex) { echo "  $k: ", $ex->getMessage(), "\n"; }
}
// All tasks already failed: the future is rejected at once.
$late = $bad->any();
var_dump($late->isCompleted());
try { await($late); } catch (CompositeException $ce) { echo $ce->getMessage(), "\n"; }
unset($bad);

try { (new TaskGroup())->any(); } catch (Async\AsyncException $ex) { echo get_class($ex), ": ", $ex->getMessage(), "\n"; }
echo "end\n";
?>
--EXPECT--
bool(false)
bool(true)
string(6) "winner"
bool(true)
string(6) "winner"
All 2 tasks failed
  a: A
  b: B
bool(true)
All 2 tasks failed
Async\AsyncException: Cannot call any() on an empty TaskGroup
end
