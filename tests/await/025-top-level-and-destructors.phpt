--TEST--
await_*: work from the main script before anything was spawned (the scheduler is launched), nest inside coroutines, and inside a destructor refuse to wait (PHP 8.2/8.3) or wait and return the results (PHP 8.4+)
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

// PHP 8.2 and 8.3 forbid coroutine switches inside a destructor: the wait is refused there.
// From PHP 8.4 the destructor may switch: the wait suspends and returns the results.
class WaitsInDestructor {
    public function __destruct() {
        try {
            $r = await_all([spawn(fn() => 'x')]);
            if (PHP_VERSION_ID < 80400) {
                echo "destructor: BAD, waited on PHP ", PHP_VERSION, "\n";
            } else {
                echo $r === [['x'], []] ? "destructor: waited\n" : "destructor: BAD result " . json_encode($r) . "\n";
            }
        } catch (Async\AsyncException $e) {
            if (PHP_VERSION_ID >= 80400) {
                echo "destructor: BAD, refused on PHP ", PHP_VERSION, ": ", $e->getMessage(), "\n";
            } else {
                echo "destructor: ", $e->getMessage(), "\n";
            }
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
destructor: %r(Cannot await inside a destructor: PHP 8\.[23]\.\S+ forbids switching coroutines there|waited)%r
end
