--TEST--
An error kept in a coroutine handle that is only destroyed by the shutdown destructors is reported, not lost
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn,delay};
class Holder { public $c; function __destruct() { echo "holder destroyed\n"; } }
$h = new Holder; $h->c = spawn(function () { throw new LogicException("kept in a handle"); });
register_shutdown_function(function () { echo "shutdown fn\n"; });
echo "end of script\n";
?>
--EXPECTF--
end of script
shutdown fn
holder destroyed

Fatal error: Uncaught LogicException: kept in a handle in %s:%d
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in %s on line %d
