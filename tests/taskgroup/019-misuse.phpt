--TEST--
TaskGroup: waits in destructors throw AsyncException on PHP 8.2/8.3 (switching is impossible there), and from PHP 8.4 wait like anywhere else; methods of a finished group keep working
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\TaskGroup;
use function Async\{delay, spawn, await};

// PHP 8.2 and 8.3 forbid switching coroutines inside destructors: a TaskGroup wait is refused there.
// From PHP 8.4 the destructor's coroutine waits like any other (the slow task gets to finish).
class WaitsInDestructor {
    function __construct(public TaskGroup $g, public string $what) {}
    function __destruct() {
        global $slowDone;
        $wasDone = $slowDone;
        try {
            $detail = match ($this->what) {
                'awaitCompletion' => $this->g->awaitCompletion() ?? "finished: " . var_export($this->g->isFinished(), true),
                'spawn' => $this->g->spawn(fn() => 'late') ?? "room made in the queue",
                'foreach' => (function () { $seen = []; foreach ($this->g as $k => $v) { $seen[$k] = $v; } return "got " . json_encode($seen); })(),
            };
            if ($wasDone) {
                echo "{$this->what}: no wait needed\n";
            } elseif (PHP_VERSION_ID >= 80400) {
                echo "{$this->what}: 8.4+: waited until the slow task ended (", var_export($slowDone, true), "), $detail\n";
            } else {
                echo "{$this->what}: 8.2-8.3: BAD, returned: $detail\n";
            }
        } catch (Async\AsyncException $e) {
            echo "{$this->what}: ", PHP_VERSION_ID >= 80400 ? "8.4+: BAD, " : "", $e->getMessage(), "\n";
        }
    }
}

// A group of concurrency 1 and queue 1, full: a slow task runs, a quick one is queued.
$slowDone = false;
function busy_group(): TaskGroup {
    global $slowDone;
    $slowDone = false;
    $g = new TaskGroup(1, 1);
    $g->spawn(function () use (&$slowDone) { delay(50); $slowDone = true; return 'slow'; });
    $g->spawn(fn() => 'quick');
    return $g;
}

$c = spawn(function () {
    $busy = busy_group();
    $busy->close();
    $o = new WaitsInDestructor($busy, 'awaitCompletion'); unset($o);
    $busy->awaitCompletion();
    $busy = busy_group();
    $busy->close();
    $o = new WaitsInDestructor($busy, 'foreach'); unset($o);
    $busy->awaitCompletion();
    $open = busy_group(); // not closed: spawn() has to wait for room in the queue
    $o = new WaitsInDestructor($open, 'spawn'); unset($o);
    $open->close();
    $open->awaitCompletion();
    $done = new WaitsInDestructor($open, 'awaitCompletion'); unset($done); // complete: nothing to wait for
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
awaitCompletion: %r(Cannot await inside a destructor: PHP 8\.[23]\.\S+ forbids switching coroutines there|8\.4\+: waited until the slow task ended \(true\), finished: true)%r
foreach: %r(Cannot wait on a TaskGroup inside a destructor: PHP 8\.[23]\.\S+ forbids switching coroutines there|8\.4\+: waited until the slow task ended \(true\), got \[\["slow",null\],\["quick",null\]\])%r
spawn: %r(Cannot wait on a TaskGroup inside a destructor: PHP 8\.[23]\.\S+ forbids switching coroutines there|8\.4\+: waited until the slow task ended \(true\), room made in the queue)%r
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
