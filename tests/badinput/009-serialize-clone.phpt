--TEST--
serialize/unserialize/clone/var_export round-trips of Coroutine and Context are rejected cleanly, also when nested
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, coroutine_context, current_coroutine};

function t(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: no error (", is_scalar($r) || $r === null ? var_export($r, true) : get_debug_type($r), ")\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
$c = spawn(fn() => 1);
$ctx = coroutine_context();
$ctx->set("k", "v");
$c->getContext()->set("co", $c);

t("serialize Context", fn() => serialize($ctx));
t("serialize Context nested", fn() => serialize(["a" => [new ArrayObject([$ctx])]]));
t("serialize Coroutine nested", fn() => serialize((object) ["c" => $c]));
t("serialize main coroutine", fn() => serialize(current_coroutine()));
t("json_encode nested", fn() => json_encode(["c" => $c, "ctx" => $ctx]));
t("unserialize O: Context", fn() => unserialize('O:13:"Async\Context":0:{}'));
t("unserialize O: Context with props", fn() => unserialize('O:13:"Async\Context":1:{s:1:"k";s:1:"v";}'));
t("unserialize C: Context", fn() => unserialize('C:13:"Async\Context":0:{}'));
t("unserialize O: Coroutine", fn() => unserialize('O:15:"Async\Coroutine":1:{s:2:"id";i:1;}'));
t("unserialize C: Coroutine", fn() => unserialize('C:15:"Async\Coroutine":0:{}'));
t("unserialize nested", fn() => unserialize('a:1:{i:0;O:15:"Async\Coroutine":0:{}}'));
t("unserialize lowercase", fn() => unserialize('O:15:"async\coroutine":0:{}'));
t("unserialize allowed_classes=false", fn() => get_class(unserialize('O:15:"Async\Coroutine":0:{}', ['allowed_classes' => false])));
t("clone Context", fn() => clone $ctx);
t("clone Coroutine", fn() => clone $c);
t("clone main", fn() => clone current_coroutine());
t("clone via ArrayObject copy", fn() => (new ArrayObject([$c]))->getArrayCopy()[0] === $c);
t("var_export + eval Context", fn() => eval('return ' . var_export($ctx, true) . ';'));
t("var_export + eval Coroutine", fn() => eval('return ' . var_export($c, true) . ';'));
t("__set_state direct", fn() => Async\Coroutine::__set_state([]));
t("context intact", fn() => $ctx->get("k"));
t("coroutine intact", fn() => await($c));
?>
--EXPECT--
serialize Context: Exception: Serialization of 'Async\Context' is not allowed
serialize Context nested: Exception: Serialization of 'Async\Context' is not allowed
serialize Coroutine nested: Exception: Serialization of 'Async\Coroutine' is not allowed
serialize main coroutine: Exception: Serialization of 'Async\Coroutine' is not allowed
json_encode nested: no error ('{"c":{},"ctx":{}}')
unserialize O: Context: Exception: Unserialization of 'Async\Context' is not allowed
unserialize O: Context with props: Exception: Unserialization of 'Async\Context' is not allowed
unserialize C: Context: Exception: Unserialization of 'Async\Context' is not allowed
unserialize O: Coroutine: Exception: Unserialization of 'Async\Coroutine' is not allowed
unserialize C: Coroutine: Exception: Unserialization of 'Async\Coroutine' is not allowed
unserialize nested: Exception: Unserialization of 'Async\Coroutine' is not allowed
unserialize lowercase: Exception: Unserialization of 'Async\Coroutine' is not allowed
unserialize allowed_classes=false: no error ('__PHP_Incomplete_Class')
clone Context: Error: Trying to clone an uncloneable object of class Async\Context
clone Coroutine: Error: Trying to clone an uncloneable object of class Async\Coroutine
clone main: Error: Trying to clone an uncloneable object of class Async\Coroutine
clone via ArrayObject copy: no error (true)
var_export + eval Context: Error: Call to undefined method Async\Context::__set_state()
var_export + eval Coroutine: Error: Call to undefined method Async\Coroutine::__set_state()
__set_state direct: Error: Call to undefined method Async\Coroutine::__set_state()
context intact: no error ('v')
coroutine intact: no error (1)
