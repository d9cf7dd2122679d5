--TEST--
var_dump/print_r/debug_zval_dump/json_encode/var_export/casts/foreach/comparisons of Coroutine and Context objects in every state
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, suspend, delay, coroutine_context, current_coroutine};

function t(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: no error (", is_scalar($r) || $r === null ? var_export($r, true) : (is_array($r) ? json_encode($r) : get_debug_type($r)), ")\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
$notStarted = spawn(fn() => 1);
$suspended = spawn(fn() => delay(100000));
$finished = spawn(fn() => "r");
$failed = spawn(function () { throw new LogicException("x"); });
$cancelled = spawn(fn() => 1);
$cancelled->cancel();
suspend();
suspend();
$notStarted2 = spawn(fn() => 1);
try { await($failed); } catch (LogicException $e) {}
$ctx = coroutine_context();
$ctx->set("key", ["nested" => $suspended])->set($finished, "object key");

foreach (['not started' => $notStarted2, 'suspended' => $suspended, 'finished' => $finished,
          'failed' => $failed, 'cancelled' => $cancelled, 'main' => current_coroutine(),
          'context' => $ctx] as $label => $o) {
    echo "== $label\n";
    var_dump($o);
    print_r($o);
    echo "\n";
    debug_zval_dump($o);
    echo var_export($o, true), "\n";
    echo json_encode($o), " ", json_encode([$o]), "\n";
    var_dump((array) $o, get_object_vars($o), (bool) $o, spl_object_id($o) > 0);
    t("string cast", fn() => (string) $o);
    t("int cast", fn() => (int) $o);
    t("float cast", fn() => (float) $o);
    t("foreach", function () use ($o) { $n = 0; foreach ($o as $v) { $n++; } return $n; });
    t("count", fn() => count($o));
    t("array access", fn() => $o[0]);
    t("property read", fn() => $o->nope);
    t("isset property", fn() => isset($o->nope));
    t("unset property", function () use ($o) { unset($o->nope); return "ok"; });
    t("dynamic property", function () use ($o) { $o->nope = 1; });
    t("=== itself", fn() => $o === $o);
    t("< itself", fn() => $o < $o);
    t("in_array strict", fn() => in_array($o, [$o], true));
    t("array key", fn() => [$o => 1]);
    t("WeakMap", function () use ($o) { $w = new WeakMap; $w[$o] = 1; return count($w); });
    t("serialize-safe debug", fn() => strlen(print_r([$o, [$o]], true)) > 0);
}
$suspended->cancel();
try { await($suspended); } catch (Async\AsyncCancellation $e) { echo "end: ", $e->getMessage(), "\n"; }
?>
--EXPECTF--
== not started
object(Async\Coroutine)#%d (0) {
}
Async\Coroutine Object
(
)

object(Async\Coroutine)#%d (0) refcount(%d){
}
\Async\Coroutine::__set_state(array(
))
{} [{}]
array(0) {
}
array(0) {
}
bool(true)
bool(true)
string cast: Error: Object of class Async\Coroutine could not be converted to string

Warning: Object of class Async\Coroutine could not be converted to int in %s on line %d
int cast: no error (1)

Warning: Object of class Async\Coroutine could not be converted to float in %s on line %d
float cast: no error (1.0)
foreach: no error (0)
count: TypeError: count(): Argument #1 ($value) must be of type Countable|array, Async\Coroutine given
array access: Error: Cannot use object of type Async\Coroutine as array

Warning: Undefined property: Async\Coroutine::$nope in %s on line %d
property read: no error (NULL)
isset property: no error (false)
unset property: no error ('ok')
dynamic property: Error: Cannot create dynamic property Async\Coroutine::$nope
=== itself: no error (true)
< itself: no error (false)
in_array strict: no error (true)
array key: TypeError: %r(Illegal offset type|Cannot access offset of type \S+ on array)%r
WeakMap: no error (1)
serialize-safe debug: no error (true)
== suspended
object(Async\Coroutine)#%d (0) {
}
Async\Coroutine Object
(
)

object(Async\Coroutine)#%d (0) refcount(%d){
}
\Async\Coroutine::__set_state(array(
))
{} [{}]
array(0) {
}
array(0) {
}
bool(true)
bool(true)
string cast: Error: Object of class Async\Coroutine could not be converted to string

Warning: Object of class Async\Coroutine could not be converted to int in %s on line %d
int cast: no error (1)

Warning: Object of class Async\Coroutine could not be converted to float in %s on line %d
float cast: no error (1.0)
foreach: no error (0)
count: TypeError: count(): Argument #1 ($value) must be of type Countable|array, Async\Coroutine given
array access: Error: Cannot use object of type Async\Coroutine as array

Warning: Undefined property: Async\Coroutine::$nope in %s on line %d
property read: no error (NULL)
isset property: no error (false)
unset property: no error ('ok')
dynamic property: Error: Cannot create dynamic property Async\Coroutine::$nope
=== itself: no error (true)
< itself: no error (false)
in_array strict: no error (true)
array key: TypeError: %r(Illegal offset type|Cannot access offset of type \S+ on array)%r
WeakMap: no error (1)
serialize-safe debug: no error (true)
== finished
object(Async\Coroutine)#%d (0) {
}
Async\Coroutine Object
(
)

object(Async\Coroutine)#%d (0) refcount(%d){
}
\Async\Coroutine::__set_state(array(
))
{} [{}]
array(0) {
}
array(0) {
}
bool(true)
bool(true)
string cast: Error: Object of class Async\Coroutine could not be converted to string

Warning: Object of class Async\Coroutine could not be converted to int in %s on line %d
int cast: no error (1)

Warning: Object of class Async\Coroutine could not be converted to float in %s on line %d
float cast: no error (1.0)
foreach: no error (0)
count: TypeError: count(): Argument #1 ($value) must be of type Countable|array, Async\Coroutine given
array access: Error: Cannot use object of type Async\Coroutine as array

Warning: Undefined property: Async\Coroutine::$nope in %s on line %d
property read: no error (NULL)
isset property: no error (false)
unset property: no error ('ok')
dynamic property: Error: Cannot create dynamic property Async\Coroutine::$nope
=== itself: no error (true)
< itself: no error (false)
in_array strict: no error (true)
array key: TypeError: %r(Illegal offset type|Cannot access offset of type \S+ on array)%r
WeakMap: no error (1)
serialize-safe debug: no error (true)
== failed
object(Async\Coroutine)#%d (0) {
}
Async\Coroutine Object
(
)

object(Async\Coroutine)#%d (0) refcount(%d){
}
\Async\Coroutine::__set_state(array(
))
{} [{}]
array(0) {
}
array(0) {
}
bool(true)
bool(true)
string cast: Error: Object of class Async\Coroutine could not be converted to string

Warning: Object of class Async\Coroutine could not be converted to int in %s on line %d
int cast: no error (1)

Warning: Object of class Async\Coroutine could not be converted to float in %s on line %d
float cast: no error (1.0)
foreach: no error (0)
count: TypeError: count(): Argument #1 ($value) must be of type Countable|array, Async\Coroutine given
array access: Error: Cannot use object of type Async\Coroutine as array

Warning: Undefined property: Async\Coroutine::$nope in %s on line %d
property read: no error (NULL)
isset property: no error (false)
unset property: no error ('ok')
dynamic property: Error: Cannot create dynamic property Async\Coroutine::$nope
=== itself: no error (true)
< itself: no error (false)
in_array strict: no error (true)
array key: TypeError: %r(Illegal offset type|Cannot access offset of type \S+ on array)%r
WeakMap: no error (1)
serialize-safe debug: no error (true)
== cancelled
object(Async\Coroutine)#%d (0) {
}
Async\Coroutine Object
(
)

object(Async\Coroutine)#%d (0) refcount(%d){
}
\Async\Coroutine::__set_state(array(
))
{} [{}]
array(0) {
}
array(0) {
}
bool(true)
bool(true)
string cast: Error: Object of class Async\Coroutine could not be converted to string

Warning: Object of class Async\Coroutine could not be converted to int in %s on line %d
int cast: no error (1)

Warning: Object of class Async\Coroutine could not be converted to float in %s on line %d
float cast: no error (1.0)
foreach: no error (0)
count: TypeError: count(): Argument #1 ($value) must be of type Countable|array, Async\Coroutine given
array access: Error: Cannot use object of type Async\Coroutine as array

Warning: Undefined property: Async\Coroutine::$nope in %s on line %d
property read: no error (NULL)
isset property: no error (false)
unset property: no error ('ok')
dynamic property: Error: Cannot create dynamic property Async\Coroutine::$nope
=== itself: no error (true)
< itself: no error (false)
in_array strict: no error (true)
array key: TypeError: %r(Illegal offset type|Cannot access offset of type \S+ on array)%r
WeakMap: no error (1)
serialize-safe debug: no error (true)
== main
object(Async\Coroutine)#%d (0) {
}
Async\Coroutine Object
(
)

object(Async\Coroutine)#%d (0) refcount(%d){
}
\Async\Coroutine::__set_state(array(
))
{} [{}]
array(0) {
}
array(0) {
}
bool(true)
bool(true)
string cast: Error: Object of class Async\Coroutine could not be converted to string

Warning: Object of class Async\Coroutine could not be converted to int in %s on line %d
int cast: no error (1)

Warning: Object of class Async\Coroutine could not be converted to float in %s on line %d
float cast: no error (1.0)
foreach: no error (0)
count: TypeError: count(): Argument #1 ($value) must be of type Countable|array, Async\Coroutine given
array access: Error: Cannot use object of type Async\Coroutine as array

Warning: Undefined property: Async\Coroutine::$nope in %s on line %d
property read: no error (NULL)
isset property: no error (false)
unset property: no error ('ok')
dynamic property: Error: Cannot create dynamic property Async\Coroutine::$nope
=== itself: no error (true)
< itself: no error (false)
in_array strict: no error (true)
array key: TypeError: %r(Illegal offset type|Cannot access offset of type \S+ on array)%r
WeakMap: no error (1)
serialize-safe debug: no error (true)
== context
object(Async\Context)#%d (0) {
}
Async\Context Object
(
)

object(Async\Context)#%d (0) refcount(%d){
}
\Async\Context::__set_state(array(
))
{} [{}]
array(0) {
}
array(0) {
}
bool(true)
bool(true)
string cast: Error: Object of class Async\Context could not be converted to string

Warning: Object of class Async\Context could not be converted to int in %s on line %d
int cast: no error (1)

Warning: Object of class Async\Context could not be converted to float in %s on line %d
float cast: no error (1.0)
foreach: no error (0)
count: TypeError: count(): Argument #1 ($value) must be of type Countable|array, Async\Context given
array access: Error: Cannot use object of type Async\Context as array

Warning: Undefined property: Async\Context::$nope in %s on line %d
property read: no error (NULL)
isset property: no error (false)
unset property: no error ('ok')
dynamic property: Error: Cannot create dynamic property Async\Context::$nope
=== itself: no error (true)
< itself: no error (false)
in_array strict: no error (true)
array key: TypeError: %r(Illegal offset type|Cannot access offset of type \S+ on array)%r
WeakMap: no error (1)
serialize-safe debug: no error (true)
end: Coroutine cancelled
