--TEST--
await_*: a non-Awaitable element throws AsyncException; bad arguments are TypeErrors; an illegal key from an iterator is a TypeError
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState, Channel};
use function Async\{await_any_or_fail, await_first_success, await_all_or_fail, await_all, await_any_of_or_fail, await_any_of, spawn, delay, suspend};

$calls = [
    'await_any_or_fail' => fn($t, $c = null) => await_any_or_fail($t, $c),
    'await_first_success' => fn($t, $c = null) => await_first_success($t, $c),
    'await_all_or_fail' => fn($t, $c = null) => await_all_or_fail($t, $c),
    'await_all' => fn($t, $c = null) => await_all($t, $c),
    'await_any_of_or_fail' => fn($t, $c = null) => await_any_of_or_fail(1, $t, $c),
    'await_any_of' => fn($t, $c = null) => await_any_of(1, $t, $c),
];
$writer = new FutureState();
$writer->ignore(); // a FutureState is the writer's side, not an Awaitable
$bad = [1, 'string', 1.5, true, [], new stdClass, $writer, new ArrayObject([])];
foreach ($calls as $name => $call) {
    $seen = [];
    foreach ($bad as $element) {
        // A pending trigger before the bad element: it is subscribed, then released again.
        $state = new FutureState();
        $pending = new Future($state);
        try {
            $call(['ok' => $pending, 'bad' => $element]);
            $seen[] = 'no exception';
        } catch (Async\AsyncException $e) {
            $seen[] = get_class($e) . ': ' . $e->getMessage();
        }
        if (count($state->getAwaitingInfo()) !== 0) {
            echo "$name: still subscribed to the pending trigger\n";
        }
        $state->complete(1); // nobody waits any more: nothing to wake
    }
    echo "$name: ", implode(' | ', array_unique($seen)), "\n";
}

// The same from a generator.
function gen_bad() { yield 'ok' => spawn(fn() => 1); yield 'bad' => 42; }
try { await_all(gen_bad()); } catch (Async\AsyncException $e) { echo "generator: ", $e->getMessage(), "\n"; }

// Illegal keys from an iterator.
function gen_key(mixed $key) { yield $key => Async\spawn(fn() => 'v'); }
try { await_all(gen_key([1])); } catch (Async\AsyncException $e) { echo "array key: ", $e->getMessage(), "\n"; }
try { await_all(gen_key(new stdClass)); } catch (Async\AsyncException $e) { echo "object key: ", $e->getMessage(), "\n"; }
try { await_all(gen_key(STDIN)); } catch (Async\AsyncException $e) { echo "resource key: ", $e->getMessage(), "\n"; }
try { Async\await_any_or_fail(gen_key(new stdClass)); } catch (Async\AsyncException $e) { echo "any, object key: ", $e->getMessage(), "\n"; }
// Keys that PHP arrays coerce are coerced the same way.
$r = await_all((function () { yield null => Future::completed('null'); yield '12' => Future::completed('numeric'); yield 2.7 => Future::completed('float'); yield true => Future::completed('bool'); })())[0];
var_dump($r);

// Arguments.
foreach ([
    fn() => await_all(42),
    fn() => await_all('string'),
    fn() => await_all(null),
    fn() => await_all([], new stdClass),
    fn() => await_all([], 'token'),
    fn() => await_any_of('x', []),
    fn() => await_all([], null, []),
] as $f) {
    try { $f(); echo "no error\n"; } catch (TypeError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
}
try { await_all(); } catch (ArgumentCountError $e) { echo $e->getMessage(), "\n"; }
try { await_any_of(1); } catch (ArgumentCountError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
await_any_or_fail: Async\AsyncException: Expected item to be an Async\Awaitable object
await_first_success: Async\AsyncException: Expected item to be an Async\Awaitable object
await_all_or_fail: Async\AsyncException: Expected item to be an Async\Awaitable object
await_all: Async\AsyncException: Expected item to be an Async\Awaitable object
await_any_of_or_fail: Async\AsyncException: Expected item to be an Async\Awaitable object
await_any_of: Async\AsyncException: Expected item to be an Async\Awaitable object
generator: Expected item to be an Async\Awaitable object
array key: Invalid key type: must be string, long or null
object key: Invalid key type: must be string, long or null
resource key: Invalid key type: must be string, long or null
any, object key: Invalid key type: must be string, long or null
array(4) {
  [""]=>
  string(4) "null"
  [12]=>
  string(7) "numeric"
  [2]=>
  string(5) "float"
  [1]=>
  string(4) "bool"
}
TypeError: Async\await_all(): Argument #1 ($triggers) must be of type Traversable|array, int given
TypeError: Async\await_all(): Argument #1 ($triggers) must be of type Traversable|array, string given
TypeError: Async\await_all(): Argument #1 ($triggers) must be of type Traversable|array, null given
TypeError: Async\await_all(): Argument #2 ($cancellation) must be of type ?Async\Awaitable, stdClass given
TypeError: Async\await_all(): Argument #2 ($cancellation) must be of type ?Async\Awaitable, string given
TypeError: Async\await_any_of(): Argument #1 ($count) must be of type int, string given
TypeError: Async\await_all(): Argument #3 ($preserveKeyOrder) must be of type bool, array given
Async\await_all() expects at least 1 argument, 0 given
Async\await_any_of() expects at least 2 arguments, 1 given
