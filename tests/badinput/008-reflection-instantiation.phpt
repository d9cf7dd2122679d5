--TEST--
Reflection cannot create a Coroutine; a Context made with new/Reflection is a usable standalone object; nothing crashes
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, coroutine_context};

function t(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: no error (", is_scalar($r) || $r === null ? var_export($r, true) : (is_array($r) ? json_encode($r) : get_debug_type($r)), ")\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
$rc = new ReflectionClass(Async\Coroutine::class);
t("Coroutine newInstance", fn() => $rc->newInstance());
t("Coroutine newInstanceArgs", fn() => $rc->newInstanceArgs([]));
t("Coroutine newInstanceWithoutConstructor", fn() => $rc->newInstanceWithoutConstructor());
t("Coroutine isInstantiable", fn() => $rc->isInstantiable());
t("Coroutine isCloneable", fn() => $rc->isCloneable());
$c = spawn(fn() => "real");
t("invoke private ctor on a live coroutine", function () use ($c) {
    $m = new ReflectionMethod(Async\Coroutine::class, '__construct');
    /* no setAccessible(true): it has had no effect since 8.1, and is deprecated from 8.5 */
    return $m->invoke($c);
});
t("Closure::bind into Coroutine scope", fn() => Closure::bind(fn() => new Async\Coroutine(), null, Async\Coroutine::class));
t("the live coroutine is unaffected", fn() => await($c));

// Context: no constructor is declared, so new works and gives an independent, usable object.
$rx = new ReflectionClass(Async\Context::class);
t("Context newInstanceWithoutConstructor", fn() => $rx->newInstanceWithoutConstructor());
foreach (['new' => fn() => new Async\Context(), 'newInstance' => fn() => $rx->newInstance(),
          'newInstanceArgs' => fn() => $rx->newInstanceArgs([])] as $how => $make) {
    t("Context $how", function () use ($make) {
        $ctx = $make();
        $ctx->set("k", "v")->set($ctx, "self");
        return [$ctx->get("k"), $ctx->find($ctx), $ctx->has("missing"), $ctx->hasLocal("k"),
                $ctx->unset("k")->findLocal("k"), $ctx !== coroutine_context()];
    });
}
t("Context with ctor args", fn() => new Async\Context(1));
$loose = new Async\Context();
$loose->set("only here", 1);
t("standalone context does not leak into coroutine_context()", fn() => coroutine_context()->has("only here"));
t("standalone context get missing", fn() => $loose->get("nope"));

// Exception classes: CompositeException is final and internal.
t("CompositeException newInstanceWithoutConstructor",
    fn() => (new ReflectionClass(Async\CompositeException::class))->newInstanceWithoutConstructor());
t("RemoteException newInstanceWithoutConstructor getters", function () {
    $e = (new ReflectionClass(Async\RemoteException::class))->newInstanceWithoutConstructor();
    return [$e->getRemoteException(), $e->getRemoteClass(), $e->getMessage()];
});
t("AsyncCancellation newInstanceWithoutConstructor", fn() => (new ReflectionClass(Async\AsyncCancellation::class))->newInstanceWithoutConstructor()->getMessage());
echo "done\n";
?>
--EXPECTF--
Coroutine newInstance: ReflectionException: Access to non-public constructor of class Async\Coroutine
Coroutine newInstanceArgs: ReflectionException: Access to non-public constructor of class Async\Coroutine
Coroutine newInstanceWithoutConstructor: ReflectionException: Class Async\Coroutine is an internal class marked as final that cannot be instantiated without invoking its constructor
Coroutine isInstantiable: no error (false)
Coroutine isCloneable: no error (false)
invoke private ctor on a live coroutine: Error: The "Async\Coroutine" class is reserved for internal use and cannot be manually instantiated

Warning: Cannot bind closure to scope of internal class Async\Coroutine%r(, this will be an error in PHP 9)?%r in %s on line %d
Closure::bind into Coroutine scope: no error (NULL)
the live coroutine is unaffected: no error ('real')
Context newInstanceWithoutConstructor: ReflectionException: Class Async\Context is an internal class marked as final that cannot be instantiated without invoking its constructor
Context new: no error (["v","self",false,true,null,true])
Context newInstance: no error (["v","self",false,true,null,true])
Context newInstanceArgs: no error (["v","self",false,true,null,true])
Context with ctor args: no error (Async\Context)
standalone context does not leak into coroutine_context(): no error (false)
standalone context get missing: Async\ContextException: Context key "nope" not found
CompositeException newInstanceWithoutConstructor: ReflectionException: Class Async\CompositeException is an internal class marked as final that cannot be instantiated without invoking its constructor
RemoteException newInstanceWithoutConstructor getters: no error ([null,"",""])
AsyncCancellation newInstanceWithoutConstructor: no error ('')
done
