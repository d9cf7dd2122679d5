--TEST--
Calling an undefined function in a fire-and-forget coroutine ends in "Fatal error: Uncaught Error"
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\spawn;

spawn(function () {
    undefined_function_in_coroutine();
});
echo "main end\n";
?>
--EXPECTF--
main end

Fatal error: Uncaught Error: Call to undefined function undefined_function_in_coroutine() in %s:%d
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in %s on line %d
