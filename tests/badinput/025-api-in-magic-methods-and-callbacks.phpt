--TEST--
Spawning and waiting inside engine-invoked code: magic methods, ArrayAccess/Countable/IteratorAggregate/JsonSerializable, __debugInfo, serialization hooks, array_map/usort/preg_replace_callback/array_walk callbacks
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, protect};

// Each call really switches: it spawns, awaits, yields and sleeps.
function work(string $tag): string {
    $r = await(spawn(function () use ($tag) { delay(1); return $tag; }));
    suspend();
    delay(1);
    return protect(fn() => $r);
}

class M implements ArrayAccess, Countable, IteratorAggregate, JsonSerializable {
    public function __toString(): string { return work("toString"); }
    public function __get($n) { return work("get:$n"); }
    public function __set($n, $v) { echo "__set ", work("$n=$v"), "\n"; }
    public function __isset($n) { return work("isset") === "isset"; }
    public function __unset($n) { echo "__unset ", work($n), "\n"; }
    public function __call($n, $a) { return work("call:$n"); }
    public static function __callStatic($n, $a) { return work("callStatic:$n"); }
    public function __invoke($x) { return work("invoke:$x"); }
    public function __debugInfo() { return ["debug" => work("debugInfo")]; }
    public function offsetExists($o): bool { return work("exists") === "exists"; }
    public function offsetGet($o): mixed { return work("offsetGet:$o"); }
    public function offsetSet($o, $v): void { echo "offsetSet ", work("$o=$v"), "\n"; }
    public function offsetUnset($o): void { echo "offsetUnset ", work($o), "\n"; }
    public function count(): int { return strlen(work("12345")); }
    public function getIterator(): Iterator { yield work("it1"); yield work("it2"); }
    public function jsonSerialize(): mixed { return work("json"); }
    public function __serialize(): array { return [work("serialized")]; }
    public function __unserialize(array $d): void { echo "__unserialize ", work($d[0]), "\n"; }
    public function __clone() { echo "__clone ", work("cloned"), "\n"; }
}

function scenario(): void {
    $m = new M;
    echo "string: $m\n";
    echo "get: ", $m->foo, "\n";
    $m->bar = "v";
    echo "isset: ", var_export(isset($m->baz), true), "\n";
    unset($m->qux);
    echo "call: ", $m->meth(), " / ", M::stat(), " / ", $m("x"), "\n";
    var_dump($m);
    echo "offsetGet: ", $m["k"], ", exists: ", var_export(isset($m["k"]), true), "\n";
    $m["a"] = "b";
    unset($m["c"]);
    echo "count: ", count($m), "\n";
    foreach ($m as $v) { echo "foreach: $v\n"; }
    echo "json: ", json_encode([$m]), "\n";
    $u = unserialize(serialize($m));
    $c = clone $m;
    echo "array_map: ", implode(",", array_map($m, [1, 2])), "\n";
    $arr = [3, 1, 2];
    usort($arr, fn($a, $b) => strlen(work("cmp")) * ($a <=> $b));
    echo "usort: ", implode(",", $arr), "\n";
    echo "preg_replace_callback: ", preg_replace_callback('/\d/', fn($mm) => work("#" . $mm[0]), "a1b2"), "\n";
    $w = [1, 2];
    array_walk($w, function (&$v) { $v = work("w$v"); });
    echo "array_walk: ", implode(",", $w), "\n";
    echo "array_filter: ", implode(",", array_filter([1, 2, 3, 4], fn($x) => work("f") === "f" && $x % 2)), "\n";
    echo "iterator_to_array: ", implode(",", iterator_to_array((function () { yield work("g1"); yield work("g2"); })(), false)), "\n";
}

// A coroutine that keeps running in between shows the switches are real.
$ticks = 0;
$ticker = spawn(function () use (&$ticks) { while (true) { delay(1); $ticks++; } });
echo "== in main\n";
scenario();
echo "== in a coroutine\n";
await(spawn('scenario'));
$ticker->cancel();
echo "other coroutine ran meanwhile: ", var_export($ticks > 5, true), "\n";
?>
--EXPECTF--
== in main
string: toString
get: get:foo
__set bar=v
isset: true
__unset qux
call: call:meth / callStatic:stat / invoke:x
object(M)#%d (1) {
  ["debug"]=>
  string(9) "debugInfo"
}
offsetGet: offsetGet:k, exists: true
offsetSet a=b
offsetUnset c
count: 5
foreach: it1
foreach: it2
json: ["json"]
__unserialize serialized
__clone cloned
array_map: invoke:1,invoke:2
usort: 1,2,3
preg_replace_callback: a#1b#2
array_walk: w1,w2
array_filter: 1,3
iterator_to_array: g1,g2
== in a coroutine
string: toString
get: get:foo
__set bar=v
isset: true
__unset qux
call: call:meth / callStatic:stat / invoke:x
object(M)#%d (1) {
  ["debug"]=>
  string(9) "debugInfo"
}
offsetGet: offsetGet:k, exists: true
offsetSet a=b
offsetUnset c
count: 5
foreach: it1
foreach: it2
json: ["json"]
__unserialize serialized
__clone cloned
array_map: invoke:1,invoke:2
usort: 1,2,3
preg_replace_callback: a#1b#2
array_walk: w1,w2
array_filter: 1,3
iterator_to_array: g1,g2
other coroutine ran meanwhile: true
