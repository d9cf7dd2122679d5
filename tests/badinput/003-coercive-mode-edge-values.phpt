--TEST--
Coercive mode: numeric strings, floats, bools and null follow PHP's usual int/bool/string juggling and deprecations
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay, coroutine_context};

function t(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: no error (", is_scalar($r) || $r === null ? var_export($r, true) : get_debug_type($r), ")\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}

t("delay '1'", fn() => delay("1"));
t("delay ' 1'", fn() => delay(" 1"));
t("delay '1 '", fn() => delay("1 "));
t("delay '1e1'", fn() => delay("1e1"));
t("delay '0x1'", fn() => delay("0x1"));
t("delay '1abc'", fn() => delay("1abc"));
t("delay ''", fn() => delay(""));
t("delay 1.0", fn() => delay(1.0));
t("delay 1.5", fn() => delay(1.5));
t("delay -0.0", fn() => delay(-0.0));
t("delay NAN", fn() => delay(NAN));
t("delay INF", fn() => delay(INF));
t("delay 1e30", fn() => delay(1e30));
t("delay '-1'", fn() => delay("-1"));
t("delay true", fn() => delay(true));
t("delay false", fn() => delay(false));
t("delay Stringable", fn() => delay(new class { function __toString(): string { return "1"; } }));

$c = spawn(fn() => 1);
t("getTrace '0', '1'", fn() => $c->getTrace("0", "1"));
t("getTrace 1.5", fn() => $c->getTrace(1.5));
t("getTrace true", fn() => $c->getTrace(true));
t("await", fn() => await($c));

$ctx = coroutine_context();
t("set float key", fn() => $ctx->set(1.5, "f")->get("1.5"));
t("set true key", fn() => $ctx->set(true, "t")->get("1"));
t("set false key", fn() => $ctx->set(false, "empty")->get(""));
t("has int 1 finds '1'", fn() => $ctx->has(1));
t("set replace 'yes'", fn() => $ctx->set("1", "again", "yes")->get("1"));
t("set replace 0", fn() => $ctx->set("1", "no", 0));
t("set replace ''", fn() => $ctx->set("1", "no", ""));
t("set Stringable key is an object key", fn() => $ctx->set(new class { function __toString(): string { return "1"; } }, "obj")->get("1"));
?>
--EXPECTF--
delay '1': no error (NULL)
delay ' 1': no error (NULL)
delay '1 ': no error (NULL)
delay '1e1': no error (NULL)
delay '0x1': TypeError: Async\delay(): Argument #1 ($ms) must be of type int, string given
delay '1abc': TypeError: Async\delay(): Argument #1 ($ms) must be of type int, string given
delay '': TypeError: Async\delay(): Argument #1 ($ms) must be of type int, string given
delay 1.0: no error (NULL)

Deprecated: Implicit conversion from float 1.5 to int loses precision in %s on line %d
delay 1.5: no error (NULL)
delay -0.0: no error (NULL)
delay NAN: TypeError: Async\delay(): Argument #1 ($ms) must be of type int, float given
delay INF: TypeError: Async\delay(): Argument #1 ($ms) must be of type int, float given
delay 1e30: TypeError: Async\delay(): Argument #1 ($ms) must be of type int, float given
delay '-1': ValueError: Async\delay(): Argument #1 ($ms) must be greater than or equal to 0
delay true: no error (NULL)
delay false: no error (NULL)
delay Stringable: TypeError: Async\delay(): Argument #1 ($ms) must be of type int, class@anonymous given
getTrace '0', '1': no error (NULL)

Deprecated: Implicit conversion from float 1.5 to int loses precision in %s on line %d
getTrace 1.5: no error (NULL)
getTrace true: no error (NULL)
await: no error (1)
set float key: TypeError: Async\Context::set(): Argument #1 ($key) must be of type string|object, float given
set true key: TypeError: Async\Context::set(): Argument #1 ($key) must be of type string|object, bool given
set false key: TypeError: Async\Context::set(): Argument #1 ($key) must be of type string|object, bool given
has int 1 finds '1': TypeError: Async\Context::has(): Argument #1 ($key) must be of type string|object, int given
set replace 'yes': no error ('again')
set replace 0: Async\AsyncException: Context key already exists and replace is false
set replace '': Async\AsyncException: Context key already exists and replace is false
set Stringable key is an object key: no error ('again')
