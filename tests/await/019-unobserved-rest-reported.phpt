--TEST--
await_any_or_fail: the triggers it did not need are not observed; a later error of one whose handle is gone is reported as unhandled (spec §8.2)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{await_any_or_fail, spawn, delay};

var_dump(await_any_or_fail([
    spawn(fn() => 'first'),
    spawn(function () { delay(5); throw new RuntimeException('nobody observed this'); }),
]));
echo "end of script\n";
?>
--EXPECTF--
string(5) "first"
end of script

Fatal error: Uncaught RuntimeException: nobody observed this in %s:%d
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in %s on line %d
