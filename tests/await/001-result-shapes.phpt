--TEST--
await_*: the shape of each function's result (value, [result, errors], keyed results)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use function Async\{await_any_or_fail, await_first_success, await_all_or_fail, await_all, await_any_of_or_fail, await_any_of};

$make = fn() => ordered_coroutines(['a' => 'A', 'b' => new RuntimeException('B failed'), 'c' => 'C'], ['c', 'b', 'a']);
$ok = fn() => ordered_coroutines(['a' => 'A', 'b' => 'B', 'c' => 'C'], ['c', 'b', 'a']);

echo "await_any_or_fail: ";
var_export(await_any_or_fail($triggers = $make()));
// The others were neither awaited nor cancelled: observe them here (b's error would otherwise
// be reported as unhandled).
echo "\nthe rest: ";
var_export(pair_summary(await_all($triggers)));
echo "\nawait_first_success: ";
var_export(pair_summary(await_first_success(ordered_coroutines(['x' => new LogicException('X failed'), 'y' => 'Y'], ['x', 'y']))));
echo "\nawait_all_or_fail: ";
var_export(await_all_or_fail($ok()));
echo "\nawait_all: ";
var_export(pair_summary(await_all($make())));
echo "\nawait_any_of_or_fail(2): ";
var_export(await_any_of_or_fail(2, $ok()));
echo "\nawait_any_of(2): ";
var_export(pair_summary(await_any_of(2, $make())));
echo "\n";

// The return types the functions declare.
foreach (['await_any_or_fail', 'await_first_success', 'await_all_or_fail', 'await_all', 'await_any_of_or_fail', 'await_any_of'] as $name) {
    $f = new ReflectionFunction("Async\\$name");
    echo $name, '(', implode(', ', array_map(fn($p) => $p->getType() . ' $' . $p->getName()
        . ($p->isOptional() ? ' = ' . var_export($p->getDefaultValue(), true) : ''), $f->getParameters())), '): ', $f->getReturnType(), "\n";
}
?>
--EXPECT--
await_any_or_fail: 'C'
the rest: array (
  0 => 
  array (
    'a' => 'A',
    'c' => 'C',
  ),
  1 => 
  array (
    'b' => 'B failed',
  ),
)
await_first_success: array (
  0 => 'Y',
  1 => 
  array (
    'x' => 'X failed',
  ),
)
await_all_or_fail: array (
  'a' => 'A',
  'b' => 'B',
  'c' => 'C',
)
await_all: array (
  0 => 
  array (
    'a' => 'A',
    'c' => 'C',
  ),
  1 => 
  array (
    'b' => 'B failed',
  ),
)
await_any_of_or_fail(2): array (
  'b' => 'B',
  'c' => 'C',
)
await_any_of(2): array (
  0 => 
  array (
    'a' => 'A',
    'c' => 'C',
  ),
  1 => 
  array (
    'b' => 'B failed',
  ),
)
await_any_or_fail(Traversable|array $triggers, ?Async\Awaitable $cancellation = NULL): mixed
await_first_success(Traversable|array $triggers, ?Async\Awaitable $cancellation = NULL): mixed
await_all_or_fail(Traversable|array $triggers, ?Async\Awaitable $cancellation = NULL, bool $preserveKeyOrder = true): array
await_all(Traversable|array $triggers, ?Async\Awaitable $cancellation = NULL, bool $preserveKeyOrder = true, bool $fillNull = false): array
await_any_of_or_fail(int $count, Traversable|array $triggers, ?Async\Awaitable $cancellation = NULL, bool $preserveKeyOrder = true): array
await_any_of(int $count, Traversable|array $triggers, ?Async\Awaitable $cancellation = NULL, bool $preserveKeyOrder = true, bool $fillNull = false): array
