--TEST--
TaskGroup/TaskSet: constructor arguments, class shape, clone and serialization refused
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{TaskGroup, TaskSet, Scope, Awaitable, Completable};

foreach ([TaskGroup::class, TaskSet::class] as $class) {
    $rc = new ReflectionClass($class);
    echo $class, ": final=", var_export($rc->isFinal(), true),
        " awaitable=", var_export($rc->implementsInterface(Awaitable::class), true),
        " completable=", var_export($rc->implementsInterface(Completable::class), true),
        " countable=", var_export($rc->implementsInterface(Countable::class), true),
        " aggregate=", var_export($rc->implementsInterface(IteratorAggregate::class), true), "\n";
}

$bad = [
    fn() => new TaskGroup(-1),
    fn() => new TaskGroup(1, -1),
    fn() => new TaskGroup(PHP_INT_MAX),
    fn() => new TaskGroup(4294967296),
    fn() => new TaskSet(1, 4294967296),
    fn() => new TaskGroup("x"),
    fn() => new TaskGroup(1, 1, new stdClass),
];
foreach ($bad as $f) {
    try { $f(); echo "no error\n"; } catch (Throwable $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
}

// Valid forms.
$ok = [new TaskGroup(), new TaskGroup(null, null), new TaskGroup(3), new TaskGroup(3, 0), new TaskGroup(1, 5),
       new TaskGroup(concurrency: 2, queueLimit: 1), new TaskSet(2), new TaskGroup(null, 7, new Scope()),
       new TaskGroup(0), new TaskSet(0), new TaskGroup(4294967295, 4294967295)];
echo count($ok), " groups\n";

// Concurrency 0 is "unlimited", like null: all three tasks start before any of them finishes.
$u = new TaskGroup(0);
for ($i = 0; $i < 3; $i++) { $u->spawn(function () use ($i) { echo "start $i\n"; Async\suspend(); echo "end $i\n"; }); }
$u->close();
$u->awaitCompletion();

// A disposed scope cannot host a group.
$s = new Scope();
$s->dispose();
try { new TaskGroup(scope: $s); } catch (Async\AsyncException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { new TaskSet(scope: $s); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }

$g = new TaskGroup();
try { $g->__construct(); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { clone $g; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { serialize($g); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
try { serialize(new TaskSet()); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
try { $g->foo = 1; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { unserialize('O:15:"Async\TaskGroup":0:{}'); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
var_dump(count($g), $g->isClosed(), $g->isFinished());
?>
--EXPECT--
Async\TaskGroup: final=true awaitable=true completable=false countable=true aggregate=true
Async\TaskSet: final=true awaitable=true completable=false countable=true aggregate=true
ValueError: Async\TaskGroup::__construct(): Argument #1 ($concurrency) must be between 0 and 4294967295
ValueError: Async\TaskGroup::__construct(): Argument #2 ($queueLimit) must be between 0 and 4294967295
ValueError: Async\TaskGroup::__construct(): Argument #1 ($concurrency) must be between 0 and 4294967295
ValueError: Async\TaskGroup::__construct(): Argument #1 ($concurrency) must be between 0 and 4294967295
ValueError: Async\TaskSet::__construct(): Argument #2 ($queueLimit) must be between 0 and 4294967295
TypeError: Async\TaskGroup::__construct(): Argument #1 ($concurrency) must be of type ?int, string given
TypeError: Async\TaskGroup::__construct(): Argument #3 ($scope) must be of type ?Async\Scope, stdClass given
11 groups
start 0
start 1
start 2
end 0
end 1
end 2
Async\AsyncException: Cannot create a TaskGroup in a disposed Scope
Cannot create a TaskSet in a disposed Scope
Error: Cannot call Async\TaskGroup::__construct() twice
Trying to clone an uncloneable object of class Async\TaskGroup
Serialization of 'Async\TaskGroup' is not allowed
Serialization of 'Async\TaskSet' is not allowed
Cannot create dynamic property Async\TaskGroup::$foo
Unserialization of 'Async\TaskGroup' is not allowed
int(0)
bool(false)
bool(true)
