--TEST--
TaskSet: joinNext()/joinAny()/joinAll() deliver and remove entries, count() is what is left undelivered, iteration consumes
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/gates.inc';
use Async\{TaskSet, CompositeException};
use function Async\{delay, await, suspend};

$gates = new Gates();
$s = new TaskSet();
$s->spawnWithKey("slow", function () use ($gates) { $gates->wait("slow"); return "slow"; });
$s->spawnWithKey("fast", function () use ($gates) { $gates->wait("fast"); return "fast"; });
$s->spawnWithKey("mid", function () use ($gates) { $gates->wait("mid"); throw new RuntimeException("mid failed"); });
var_dump(count($s));
// Two pending joinNext(): each gets its own task, in settle order.
$n1 = $s->joinNext();
$n2 = $s->joinNext();
$gates->release("fast", "mid");
var_dump(await($n1));
try { await($n2); } catch (RuntimeException $e) { echo "joinNext 2: ", $e->getMessage(), "\n"; }
var_dump(count($s));
$gates->open("slow");
var_dump(await($s->joinNext()), count($s));
// Nothing left.
try { $s->joinNext(); } catch (Async\AsyncException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $s->joinAny(); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }
var_dump(await($s->joinAll()));

// joinAny(): the first success is delivered; errors stay until they are delivered too.
$a = new TaskSet();
$a->spawnWithKey("e", function () { throw new LogicException("early error"); });
$a->spawnWithKey("ok", function () { suspend(); return "success"; });
var_dump(await($a->joinAny()), count($a));
try { await($a->joinAny()); } catch (CompositeException $ce) { echo "joinAny: ", $ce->getMessage(), ": ", implode(",", array_keys($ce->getExceptions())), "\n"; }
var_dump(count($a));

// joinAll(): results by key; delivered entries are removed; ignoreErrors.
$j = new TaskSet(2);
for ($i = 0; $i < 4; $i++) { $j->spawn(function ($i) { delay(1); if ($i == 2) throw new Exception("two"); return $i; }, $i); }
try { await($j->joinAll()); } catch (CompositeException $ce) { echo "joinAll: ", $ce->getMessage(), "\n"; }
var_dump(count($j));
$j->spawn(fn() => "after");
$j->spawn(fn() => throw new Exception("ignored"));
var_dump(await($j->joinAll(true)), count($j));

// Iteration consumes: a second foreach sees only what arrived since.
$it = new TaskSet();
for ($i = 0; $i < 3; $i++) { $it->spawn(fn() => "v$i"); }
delay(1);
$n = 0;
foreach ($it as $k => [$r, $e]) { echo "$k=$r "; if (++$n == 3) break; } // not closed: it would wait for more
echo "| count=", count($it), "\n";
$it->spawn(fn() => "later");
$it->close();
foreach ($it as $k => [$r, $e]) { echo "$k=$r "; }
echo "| count=", count($it), "\n";
foreach ($it as $k => $v) { echo "nothing\n"; }

// Two joinNext() for one task: the second is rejected when nothing is left to deliver.
$starve = new TaskSet();
$starve->spawn(function () { suspend(); return "only"; });
$x = $starve->joinNext();
$y = $starve->joinNext();
var_dump(await($x));
try { await($y); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }

// The TaskGroup methods that a TaskSet does not have.
foreach (['race', 'any', 'all', 'getResults', 'getErrors', 'suppressErrors'] as $m) {
    echo $m, ": ", method_exists($it, $m) ? "yes" : "no", "\n";
}
?>
--EXPECT--
int(3)
string(4) "fast"
joinNext 2: mid failed
int(1)
string(4) "slow"
int(0)
Async\AsyncException: Cannot call joinNext() on an empty TaskSet
Cannot call joinAny() on an empty TaskSet
array(0) {
}
string(7) "success"
int(1)
joinAny: All 1 task failed: e
int(0)
joinAll: 1 of 4 tasks failed
int(0)
array(1) {
  [4]=>
  string(5) "after"
}
int(0)
0=v0 1=v1 2=v2 | count=0
3=later | count=0
string(4) "only"
joinNext() has no task left to deliver: the TaskSet is empty
race: no
any: no
all: no
getResults: no
getErrors: no
suppressErrors: no
