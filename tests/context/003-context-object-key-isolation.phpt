--TEST--
Context: object keys never collide with string keys (strings may contain NUL bytes)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\coroutine_context;

$ctx = coroutine_context();
$o = new stdClass;
$ctx->set($o, "object value");
// Any string key, including ones with NUL bytes, is a different key from any object.
$candidates = ["\0#obj#" . spl_object_id($o), "\0obj:" . spl_object_id($o), (string) spl_object_id($o)];
foreach ($candidates as $k) {
    var_dump($ctx->has($k));
}
$ctx->set("\0#obj#" . spl_object_id($o), "string value");
var_dump($ctx->get($o));
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
string(12) "object value"
