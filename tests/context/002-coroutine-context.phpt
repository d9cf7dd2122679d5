--TEST--
coroutine_context(): set/get/has/find/unset, replace flag, object keys, ContextException
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, current_coroutine, coroutine_context};

$c = spawn(function () {
    $ctx = coroutine_context();
    var_dump($ctx instanceof Async\Context);
    var_dump($ctx === coroutine_context(), $ctx === current_coroutine()->getContext());
    var_dump($ctx->set("k", 1) === $ctx);
    try {
        $ctx->set("k", 2);
    } catch (Async\AsyncException $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    var_dump($ctx->get("k"));
    $ctx->set("k", 3, true);
    var_dump($ctx->get("k"), $ctx->find("k"), $ctx->has("k"), $ctx->getLocal("k"), $ctx->findLocal("k"), $ctx->hasLocal("k"));

    $o = new stdClass;
    $o2 = new stdClass;
    $ctx->set($o, "objval");
    var_dump($ctx->get($o), $ctx->has($o2), $ctx->find($o2));

    var_dump($ctx->unset("k") === $ctx, $ctx->has("k"), $ctx->find("k"));
    foreach ([fn() => $ctx->get("k"), fn() => $ctx->getLocal("missing"), fn() => $ctx->get($o2)] as $f) {
        try {
            $f();
        } catch (Async\ContextException $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
    $ctx->unset($o);
    var_dump($ctx->has($o));
    $ctx->unset("never-set");

    // null values are present.
    $ctx->set("null", null);
    var_dump($ctx->has("null"), $ctx->find("null"), $ctx->get("null"));
    // A key set after unset does not need replace.
    $ctx->set("k", "again");
    var_dump($ctx->get("k"));
    return $ctx;
});
$ctx = await($c);

// Contexts are private per coroutine.
$a = spawn(function () { coroutine_context()->set("shared?", "a"); suspend(); return coroutine_context()->get("shared?"); });
$b = spawn(function () { return coroutine_context()->has("shared?"); });
var_dump(await($b), await($a));

// The main coroutine has its own context; the finished coroutine's context is still usable.
var_dump(coroutine_context() !== $ctx, coroutine_context()->has("null"), $ctx->get("k"));

// getContext() from outside gives the same object the coroutine sees.
$d = spawn(function () { return coroutine_context()->get("injected"); });
$d->getContext()->set("injected", "from outside");
var_dump(await($d));

// Object keys are kept alive by the context.
$holder = await(spawn(function () {
    $k = new ArrayObject([1, 2, 3]);
    coroutine_context()->set($k, "v");
    $id = spl_object_id($k);
    unset($k);
    return [coroutine_context(), $id];
}));
var_dump(is_int($holder[1]));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
Async\AsyncException: Context key already exists and replace is false
int(1)
int(3)
int(3)
bool(true)
int(3)
int(3)
bool(true)
string(6) "objval"
bool(false)
NULL
bool(true)
bool(false)
NULL
Async\ContextException: Context key "k" not found
Async\ContextException: Context key "missing" not found
Async\ContextException: Context key of type stdClass not found
bool(false)
bool(true)
NULL
NULL
string(5) "again"
bool(false)
string(1) "a"
bool(true)
bool(false)
string(5) "again"
string(12) "from outside"
bool(true)
