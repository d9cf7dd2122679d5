--TEST--
TaskGroup: waits where switching is impossible (destructors) throw AsyncException; methods of a finished group keep working
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\TaskGroup;
use function Async\{delay, spawn, await};

class WaitsInDestructor {
    function __construct(public TaskGroup $g, public string $what) {}
    function __destruct() {
        try {
            match ($this->what) {
                'awaitCompletion' => $this->g->awaitCompletion(),
                'spawn' => $this->g->spawn(fn() => 1),
                'foreach' => (function () { foreach ($this->g as $x) {} })(),
            };
            echo "{$this->what}: no wait needed\n";
        } catch (Async\AsyncException $e) {
            echo "{$this->what}: ", $e->getMessage(), "\n";
        }
    }
}

$c = spawn(function () {
    $busy = new TaskGroup(1, 1);
    $busy->spawn(fn() => delay(50));
    $busy->spawn(fn() => 1);
    $busy->close();
    $o = new WaitsInDestructor($busy, 'awaitCompletion'); unset($o);
    $o = new WaitsInDestructor($busy, 'foreach'); unset($o);
    $open = new TaskGroup(1, 1);
    $open->spawn(fn() => delay(50));
    $open->spawn(fn() => 1);
    $o = new WaitsInDestructor($open, 'spawn'); unset($o);
    $busy->awaitCompletion();
    $done = new WaitsInDestructor($busy, 'awaitCompletion'); unset($done); // complete: nothing to wait for
    $open->cancel();
});
await($c);

// Everything on a finished group.
$g = new TaskGroup();
$g->spawn(fn() => 1);
$g->close();
$g->awaitCompletion();
var_dump($g->isClosed(), $g->isFinished(), count($g), $g->getResults(), $g->getErrors());
$g->close(); $g->cancel(); $g->dispose(); $g->suppressErrors();
var_dump(await($g->all()), await($g->race()), await($g->any()), count($g));
?>
--EXPECTF--
awaitCompletion: Cannot await inside a destructor: PHP 8.2.%s forbids switching coroutines there
foreach: Cannot wait on a TaskGroup inside a destructor: PHP 8.2.%s forbids switching coroutines there
spawn: Cannot wait on a TaskGroup inside a destructor: PHP 8.2.%s forbids switching coroutines there
awaitCompletion: no wait needed
bool(true)
bool(true)
int(1)
array(1) {
  [0]=>
  int(1)
}
array(0) {
}
array(1) {
  [0]=>
  int(1)
}
int(1)
int(1)
int(1)
