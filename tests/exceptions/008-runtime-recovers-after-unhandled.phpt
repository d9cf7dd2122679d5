--TEST--
After an unhandled coroutine exception was delivered to (and caught by) main, the runtime keeps working
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

spawn(function () { throw new Exception("boom"); });
try {
    delay(1000);
    echo "not reached\n";
} catch (Exception $e) {
    echo "main delay caught: ", $e->getMessage(), "\n";
}

// The next waits must behave normally.
$t = hrtime(true);
delay(20);
var_dump((hrtime(true) - $t) / 1e6 >= 19);

$c = spawn(function () { delay(20); return "result"; });
var_dump(await($c));

// A second unhandled error is delivered the same way.
$long = spawn(function () { delay(1000); return "long"; });
spawn(function () { delay(5); throw new RuntimeException("boom2"); });
try {
    var_dump(await($long));
    echo "not reached\n";
} catch (Throwable $e) {
    echo "main await caught: ", get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump(await(spawn(fn() => "still fine")));
echo "end\n";
?>
--EXPECT--
main delay caught: boom
bool(true)
string(6) "result"
main await caught: RuntimeException: boom2
string(10) "still fine"
end
