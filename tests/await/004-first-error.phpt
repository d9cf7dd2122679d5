--TEST--
await_*_or_fail: the first error to happen (not the first in input order) is thrown, the same object; await_all collects every error
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use function Async\{await_all, await_any_or_fail, await_all_or_fail, await_any_of_or_fail};

$e1 = new RuntimeException('input-first');
$e2 = new LogicException('happens-first');
$values = ['a' => 'A', 'e1' => $e1, 'e2' => $e2, 'z' => 'Z'];

foreach (['await_all_or_fail', 'await_any_or_fail', 'await_any_of_or_fail'] as $fn) {
    $t = ordered_coroutines($values, ['e2', 'a', 'e1', 'z']);
    try {
        $fn === 'await_any_of_or_fail' ? await_any_of_or_fail(3, $t) : ("Async\\$fn")($t);
        echo "$fn: no exception\n";
    } catch (Throwable $e) {
        echo "$fn: ", describe($e), ", same object: ", var_export($e === $e2, true), "\n";
    }
    await_all($t); // let the rest finish, observing e1
}

// An error after enough successes does not matter to await_any_of_or_fail.
$t = ordered_coroutines($values, ['a', 'z', 'e1', 'e2']);
echo "any_of_or_fail(2): ", json_encode(await_any_of_or_fail(2, $t)), "\n";
await_all($t);

// await_any_or_fail: the first to settle wins, even if a success comes later.
$t = ordered_coroutines(['ok' => 'fine', 'bad' => new DomainException('first to settle')], ['bad', 'ok']);
try { await_any_or_fail($t); } catch (DomainException $e) { echo "any_or_fail: ", $e->getMessage(), "\n"; }
await_all($t);

// await_all never throws for task errors; each error is the coroutine's own exception object.
$t = ordered_coroutines($values, ['z', 'e1', 'a', 'e2']);
[$r, $errors] = await_all($t);
var_dump($errors['e1'] === $e1, $errors['e2'] === $e2, $errors['e1'] === $t['e1']->getException());
echo json_encode($r), "\n";

// Errors from futures too; an Error (not Exception) is collected the same way.
$f = ordered_futures(['f' => new Error('an Error'), 'g' => 'G'], ['g', 'f']);
try { await_all_or_fail($f); } catch (Error $e) { echo "futures: ", describe($e), "\n"; }
?>
--EXPECT--
await_all_or_fail: LogicException(happens-first), same object: true
await_any_or_fail: LogicException(happens-first), same object: true
await_any_of_or_fail: LogicException(happens-first), same object: true
any_of_or_fail(2): {"a":"A","z":"Z"}
any_or_fail: first to settle
bool(true)
bool(true)
bool(true)
{"a":"A","z":"Z"}
futures: Error(an Error)
