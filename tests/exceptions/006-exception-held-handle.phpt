--TEST--
An exception in a coroutine whose handle is held waits on the handle; a later await rethrows it
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

$sibling = spawn(function () { delay(30); return "sibling ok"; });
$c = spawn(function () { throw new Exception("held"); });
delay(10);
echo "main still running\n";
var_dump($c->isCompleted(), $sibling->isCompleted());
// No shutdown happened: the sibling completes normally.
var_dump(await($sibling));
try { await($c); } catch (Exception $e) { echo "caught: ", $e->getMessage(), "\n"; }
try { await($c); } catch (Exception $e) { echo "caught again: ", $e->getMessage(), "\n"; }

// Held in an array / object property also counts as held.
$holder = new stdClass;
$holder->list = [spawn(function () { throw new Exception("in array"); })];
delay(5);
try { await($holder->list[0]); } catch (Exception $e) { echo "caught: ", $e->getMessage(), "\n"; }

// The handle is dropped while the error is still unobserved: it is rethrown then.
$d = spawn(function () { throw new Exception("dropped later"); });
delay(5);
echo "before unset\n";
try {
    unset($d);
    delay(10);
    echo "not reached\n";
} catch (Exception $e) {
    echo "caught: ", $e->getMessage(), "\n";
}
echo "end\n";
?>
--EXPECT--
main still running
bool(true)
bool(false)
string(10) "sibling ok"
caught: held
caught again: held
caught: in array
before unset
caught: dropped later
end
