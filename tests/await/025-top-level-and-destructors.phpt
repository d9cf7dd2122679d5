--TEST--
await_*: work from the main script before anything was spawned (the scheduler is launched), nest inside coroutines, and refuse to wait inside a destructor
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Future;
use function Async\{await_all, await_any_or_fail, await_all_or_fail, spawn, delay, get_coroutines, timeout};

// The very first async call of the script.
var_dump(get_coroutines());
var_dump(await_all([Future::completed('first call')]));
var_dump(count(get_coroutines()) >= 1);

// A timeout trigger at top level needs the reactor.
try { await_any_or_fail([timeout(5)]); } catch (Async\TimeoutException $e) { echo "top level: ", $e->getMessage(), "\n"; }

// Nested: coroutines that themselves wait for groups.
$outer = await_all_or_fail([
    'left' => spawn(fn() => await_all_or_fail([spawn(fn() => 'l1'), spawn(function () { delay(2); return 'l2'; })])),
    'right' => spawn(fn() => await_any_or_fail([spawn(function () { delay(1); return 'r1'; })])),
]);
echo json_encode($outer), "\n";

// Inside a destructor no coroutine switch is possible (PHP 8.2): the wait is refused.
class WaitsInDestructor {
    public function __destruct() {
        try {
            await_all([spawn(fn() => 'x')]);
            echo "destructor: waited\n";
        } catch (Async\AsyncException $e) {
            echo "destructor: ", $e->getMessage(), "\n";
        }
    }
}
$o = new WaitsInDestructor();
unset($o);
echo "end\n";
?>
--EXPECTF--
array(0) {
}
array(2) {
  [0]=>
  array(1) {
    [0]=>
    string(10) "first call"
  }
  [1]=>
  array(0) {
  }
}
bool(true)
top level: Timeout occurred after 5 milliseconds
{"left":["l1","l2"],"right":"r1"}
destructor: Cannot await inside a destructor: PHP %s forbids switching coroutines there
end
