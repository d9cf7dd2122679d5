--TEST--
Async\Coroutine is final
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
class MyCoroutine extends Async\Coroutine {}
echo "not reached\n";
?>
--EXPECTF--
Fatal error: Class MyCoroutine cannot extend final class Async\Coroutine in %s on line %d
