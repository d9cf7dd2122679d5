--TEST--
A user class cannot implement Async\Completable
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
abstract class C implements Async\Completable {}
echo "not reached\n";
?>
--EXPECTF--
Fatal error: Class C cannot implement interface Async\Completable: it is reserved for the async runtime's classes in %s on line %d
