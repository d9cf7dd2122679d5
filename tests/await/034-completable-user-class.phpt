--TEST--
A user class cannot implement Async\Completable, directly or through an interface extending Awaitable
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
interface MyIface extends Async\Awaitable {}
echo "interface ok\n";
abstract class MyCompletable implements MyIface {}
echo "not reached\n";
?>
--EXPECTF--
interface ok

Fatal error: Class MyCompletable cannot implement interface Async\Awaitable: it is reserved for the async runtime's classes in %s on line %d
