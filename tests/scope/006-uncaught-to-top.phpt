--TEST--
Scope: an unhandled error from a child scope bubbles to the top: Fatal error: Uncaught, after a graceful shutdown
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{spawn, delay};

$s = Scope::inherit();
$s->spawn(function () { delay(1); throw new RuntimeException("escaped the tree"); });
spawn(function () {
    try { delay(5000); } catch (Async\AsyncCancellation $e) { echo "other: ", $e->getMessage(), "\n"; }
});
delay(1000);
echo "not reached\n";
?>
--EXPECTF--
other: Graceful shutdown

Fatal error: Uncaught RuntimeException: escaped the tree in %s:%d
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in %s on line %d
