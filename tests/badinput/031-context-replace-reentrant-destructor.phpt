--TEST--
Context::set(..., replace: true) whose old value's destructor re-enters the same Context (grows it, unsets the key, sets it again) must not corrupt memory
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
class Grower {
    public function __construct(private Async\Context $ctx) {}
    public function __destruct() {
        echo "grower destructor\n";
        for ($i = 0; $i < 50; $i++) { $this->ctx->set("filler $i", $i, true); }
    }
}
class SelfUnset {
    public function __construct(private Async\Context $ctx) {}
    public function __destruct() {
        echo "self-unset destructor\n";
        $this->ctx->unset("k");
        $this->ctx->set("k", "set by destructor");
    }
}

$ctx = Async\coroutine_context();
$ctx->set("k", new Grower($ctx));
var_dump($ctx->set("k", "new value", true)->get("k"));
var_dump($ctx->get("filler 49"));

$ctx2 = new Async\Context();
$ctx2->set("k", new SelfUnset($ctx2));
// Either order is acceptable (PHP arrays assign first and destroy the old value afterwards).
var_dump(in_array($ctx2->set("k", "replacement", true)->get("k"), ["replacement", "set by destructor"], true));

// The same inside a coroutine, on its own context.
var_dump(Async\await(Async\spawn(function () {
    $c = Async\coroutine_context();
    $c->set("k", new Grower($c));
    return $c->set("k", "in coroutine", true)->get("k");
})));
echo "end\n";
?>
--EXPECT--
grower destructor
string(9) "new value"
int(49)
self-unset destructor
bool(true)
grower destructor
string(12) "in coroutine"
end
