--TEST--
Context keys are string|object only: int, float, bool and null keys are TypeErrors in coercive mode too (never coerced, so 1 and "1" cannot silently be one key); under strict_types the same
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\coroutine_context;

$ctx = coroutine_context();
$ctx->set("1", "one");
foreach ([1, 2.5, true, null] as $key) {
    foreach (['set', 'get', 'find', 'has', 'unset'] as $method) {
        try {
            $method === 'set' ? $ctx->set($key, 'x') : $ctx->$method($key);
            echo "$method: accepted\n";
        } catch (TypeError $e) {
            echo $e->getMessage(), "\n";
        }
    }
}
var_dump($ctx->get("1"));
try {
    $ctx->get(new stdClass);
} catch (Async\ContextException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
// The reflected signature says so.
echo (new ReflectionMethod(Async\Context::class, 'get'))->getParameters()[0]->getType(), "\n";

// Under strict_types: the same TypeError.
file_put_contents(__DIR__ . '/001-strict.inc', '<?php declare(strict_types=1);
try { Async\coroutine_context()->get(1); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }');
include __DIR__ . '/001-strict.inc';
?>
--CLEAN--
<?php @unlink(__DIR__ . '/001-strict.inc'); ?>
--EXPECT--
Async\Context::set(): Argument #1 ($key) must be of type string|object, int given
Async\Context::get(): Argument #1 ($key) must be of type string|object, int given
Async\Context::find(): Argument #1 ($key) must be of type string|object, int given
Async\Context::has(): Argument #1 ($key) must be of type string|object, int given
Async\Context::unset(): Argument #1 ($key) must be of type string|object, int given
Async\Context::set(): Argument #1 ($key) must be of type string|object, float given
Async\Context::get(): Argument #1 ($key) must be of type string|object, float given
Async\Context::find(): Argument #1 ($key) must be of type string|object, float given
Async\Context::has(): Argument #1 ($key) must be of type string|object, float given
Async\Context::unset(): Argument #1 ($key) must be of type string|object, float given
Async\Context::set(): Argument #1 ($key) must be of type string|object, bool given
Async\Context::get(): Argument #1 ($key) must be of type string|object, bool given
Async\Context::find(): Argument #1 ($key) must be of type string|object, bool given
Async\Context::has(): Argument #1 ($key) must be of type string|object, bool given
Async\Context::unset(): Argument #1 ($key) must be of type string|object, bool given
Async\Context::set(): Argument #1 ($key) must be of type string|object, null given
Async\Context::get(): Argument #1 ($key) must be of type string|object, null given
Async\Context::find(): Argument #1 ($key) must be of type string|object, null given
Async\Context::has(): Argument #1 ($key) must be of type string|object, null given
Async\Context::unset(): Argument #1 ($key) must be of type string|object, null given
string(3) "one"
Async\ContextException: Context key of type stdClass not found
object|string
Async\Context::get(): Argument #1 ($key) must be of type string|object, int given
