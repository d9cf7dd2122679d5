--TEST--
Context keys are declared string|object: scalar keys follow PHP's coercive typing, strict_types rejects them
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\coroutine_context;

$ctx = coroutine_context();
// Coercive mode: an int key becomes the string "1", exactly like a user function string|object param.
$ctx->set(1, "one");
var_dump($ctx->get("1"), $ctx->has(1), $ctx->find(1));
$ctx->set("2.5", "x");
var_dump($ctx->has(2.5));
try {
    $ctx->get(3);
} catch (Throwable $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
// The reflected signature says so.
echo (new ReflectionMethod(Async\Context::class, 'get'))->getParameters()[0]->getType(), "\n";

// Under strict_types the same call is a TypeError.
file_put_contents(__DIR__ . '/009-strict.inc', '<?php declare(strict_types=1);
try { Async\coroutine_context()->get(1); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }');
include __DIR__ . '/009-strict.inc';
?>
--CLEAN--
<?php @unlink(__DIR__ . '/009-strict.inc'); ?>
--EXPECT--
string(3) "one"
bool(true)
string(3) "one"
bool(true)
Async\ContextException: Context key "3" not found
object|string
Async\Context::get(): Argument #1 ($key) must be of type object|string, int given
