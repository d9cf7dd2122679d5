--TEST--
Context with weird keys: empty string, 1 MiB string, NUL bytes, the Context itself, Coroutines, closures, objects destroyed while stored, re-entrant destructors during unset
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, current_coroutine, coroutine_context};

function show(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: ", is_object($r) ? get_class($r) : var_export($r, true), "\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", strlen($e->getMessage()) > 80 ? substr($e->getMessage(), 0, 40) . "...(" . strlen($e->getMessage()) . " bytes)" : $e->getMessage(), "\n";
    }
}
$ctx = coroutine_context();

show("empty set/get", fn() => $ctx->set("", "empty")->get(""));
show("empty has/hasLocal", fn() => [$ctx->has(""), $ctx->hasLocal("")]);
show("empty unset", fn() => $ctx->unset("")->has(""));
show("empty get missing", fn() => $ctx->get(""));
$long = str_repeat("k", 1 << 20);
show("1 MiB key set/get", fn() => $ctx->set($long, "long")->get($long));
show("1 MiB key missing", fn() => $ctx->get($long . "x"));
show("NUL bytes are part of the key", fn() => [$ctx->set("a\0b", 1)->has("a"), $ctx->has("a\0b"), $ctx->has("a\0c")]);
show("binary key", fn() => $ctx->set("\xff\xfe", "bin")->get("\xff\xfe"));

// Objects as keys, including the context itself and coroutines.
show("context as its own key", fn() => $ctx->set($ctx, "self")->get($ctx));
show("context as its own value", fn() => $ctx->set("me", $ctx)->get("me") === $ctx);
show("current coroutine as key", fn() => $ctx->set(current_coroutine(), "co")->get(current_coroutine()));
$c = spawn(fn() => 1);
show("another coroutine as key", fn() => $ctx->set($c, "other")->find($c));
show("its own context as key in it", fn() => $c->getContext()->set($c->getContext(), $c)->get($c->getContext()) === $c);
show("closure key", function () use ($ctx) { $k = fn() => 1; return $ctx->set($k, "closure")->get($k); });
show("missing object key message", fn() => $ctx->get(new ArrayObject()));
show("anonymous class key message", fn() => $ctx->get(new class {}));
await($c);

// Objects destroyed "while stored": the context keeps a key object alive until it is unset.
class Noisy { public function __construct(public string $n) {} public function __destruct() { echo "  ~{$this->n}\n"; } }
$k = new Noisy("key object");
$ctx->set($k, "kv");
$id = spl_object_id($k);
unset($k);
echo "after dropping the only outside reference\n";
$ctx->set(new Noisy("temporary key"), "temp");
echo "after storing a temporary key\n";
foreach ([1, 2] as $i) { $ctx->set("value$i", new Noisy("value $i")); }
show("replace a value (old value destroyed)", fn() => $ctx->set("value1", "plain", true)->get("value1"));
show("unset a value (value destroyed)", fn() => $ctx->unset("value2")->has("value2"));

// Destructors that re-enter the same context while it is being modified.
class Reenter {
    public function __construct(public Async\Context $ctx, public string $what) {}
    public function __destruct() {
        echo "  re-entering from destructor ({$this->what})\n";
        $this->ctx->set("from dtor {$this->what}", 1, true);
        for ($i = 0; $i < 50; $i++) { $this->ctx->set("filler {$this->what} $i", $i, true); }
        $this->ctx->unset("victim");
    }
}
// (replacing a value whose destructor re-enters: see 031)
$ctx->set("victim", 1);
$ctx->set("r2", new Reenter($ctx, "unset"));
show("unset with re-entrant destructor", fn() => [$ctx->unset("r2")->has("r2"), $ctx->has("victim"), $ctx->has("filler unset 49")]);
$ctx->set("victim", 1);
$ctx->set(new Reenter($ctx, "object key"), "v");
echo "object key stored\n";

// A context reachable only through a cycle with its coroutine is collected cleanly.
$holder = spawn(function () {
    $me = current_coroutine();
    coroutine_context()->set($me, coroutine_context())->set(coroutine_context(), $me)->set("n", new Noisy("in a cycle"));
    return 1;
});
await($holder);
unset($holder);
gc_collect_cycles();
echo "end\n";
?>
--EXPECT--
empty set/get: 'empty'
empty has/hasLocal: array (
  0 => true,
  1 => true,
)
empty unset: false
empty get missing: Async\ContextException: Context key "" not found
1 MiB key set/get: 'long'
1 MiB key missing: Async\ContextException: Context key "kkkkkkkkkkkkkkkkkkkkkkkkkkk...(1048601 bytes)
NUL bytes are part of the key: array (
  0 => false,
  1 => true,
  2 => false,
)
binary key: 'bin'
context as its own key: 'self'
context as its own value: true
current coroutine as key: 'co'
another coroutine as key: 'other'
its own context as key in it: true
closure key: 'closure'
missing object key message: Async\ContextException: Context key of type ArrayObject not found
anonymous class key message: Async\ContextException: Context key of type class@anonymous not found
after dropping the only outside reference
after storing a temporary key
  ~value 1
replace a value (old value destroyed): 'plain'
  ~value 2
unset a value (value destroyed): false
  re-entering from destructor (unset)
unset with re-entrant destructor: array (
  0 => false,
  1 => false,
  2 => true,
)
object key stored
  ~in a cycle
end
  ~key object
  re-entering from destructor (object key)
  ~temporary key
