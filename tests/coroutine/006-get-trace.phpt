--TEST--
getTrace() of a suspended coroutine; null when not suspended
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, current_coroutine};

function level2($x) {
    delay(50);
    return $x;
}
function level1($x) {
    return level2($x + 1);
}

$c = spawn('level1', 1);
var_dump($c->getTrace());          // not started
suspend();
$trace = $c->getTrace();
foreach ($trace as $i => $frame) {
    echo "#$i ", $frame['function'], isset($frame['line']) ? " line " . $frame['line'] : "",
        isset($frame['args']) ? " args " . json_encode($frame['args']) : "", "\n";
}
$t = $c->getTrace(DEBUG_BACKTRACE_IGNORE_ARGS);
var_dump(isset($t[0]['args']));
var_dump(count($c->getTrace(DEBUG_BACKTRACE_PROVIDE_OBJECT, 1)));

// Inside itself (running): null.
var_dump(await(spawn(fn() => current_coroutine()->getTrace())));
// Main: null.
var_dump(current_coroutine()->getTrace());
await($c);
var_dump($c->getTrace());          // finished

// A method frame carries the object with PROVIDE_OBJECT.
class Obj { function run() { delay(20); } }
$o = new Obj;
$m = spawn([$o, 'run']);
suspend();
$t = $m->getTrace();
var_dump($t[1]['class'], $t[1]['object'] === $o, $t[1]['type']);
await($m);
?>
--EXPECT--
NULL
#0 Async\delay line 5 args [50]
#1 level2 line 9 args [2]
#2 level1 args [1]
bool(false)
int(1)
NULL
NULL
NULL
string(3) "Obj"
bool(true)
string(2) "->"
