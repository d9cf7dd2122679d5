--TEST--
getId(), getSpawnLocation()/getSpawnFileAndLine(), getSuspendLocation()/getSuspendFileAndLine()
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, current_coroutine};

function worker() {
    delay(20);
    return 1;
}

$c = spawn('worker');
$d = spawn(function () { suspend(); });

// Ids: the object handle, unique among live coroutines.
var_dump($c->getId() === spl_object_id($c), $c->getId() !== $d->getId(), is_int($c->getId()));
var_dump($c->getId() === $c->getId());

// Spawn location: where spawn() was called.
var_dump($c->getSpawnLocation() === __FILE__ . ":9");
var_dump($c->getSpawnFileAndLine() === [__FILE__, 9]);
var_dump($d->getSpawnFileAndLine() === [__FILE__, 10]);

// Suspend location before the first suspension.
var_dump($c->getSuspendLocation(), $c->getSuspendFileAndLine());

suspend();
// Now $c sleeps in worker() line 5.
var_dump($c->getSuspendLocation() === __FILE__ . ":5");
var_dump($c->getSuspendFileAndLine() === [__FILE__, 5]);
var_dump($c->getSuspendLocation() === implode(":", $c->getSuspendFileAndLine()));

// Spawned from inside a coroutine: the location is inside the closure.
$inner = await(spawn(function () {
    return spawn(fn() => 1);
}));
var_dump($inner->getSpawnFileAndLine() === [__FILE__, 32]);

// The spawn location survives completion.
await($c);
var_dump($c->getSpawnLocation() === __FILE__ . ":9");
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(7) "unknown"
array(2) {
  [0]=>
  NULL
  [1]=>
  int(0)
}
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
