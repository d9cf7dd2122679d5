--TEST--
A user class cannot implement Async\Awaitable
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
class MyAwaitable implements Async\Awaitable {}
echo "not reached\n";
?>
--EXPECTF--
Fatal error: Class MyAwaitable cannot implement interface Async\Awaitable: it is reserved for the async runtime's classes in %s on line %d
