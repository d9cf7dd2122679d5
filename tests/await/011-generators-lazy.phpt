--TEST--
await_*: generators are consumed lazily by a helper coroutine: they may suspend, their triggers run meanwhile, and consumption stops once the wait is decided
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Future;
use function Async\{await_all, await_any_or_fail, await_first_success, spawn, delay, suspend};

$log = [];
function source(array &$log) {
    try {
        $log[] = 'pull a';
        yield 'a' => spawn(function () use (&$log) { $log[] = 'a runs'; return 'A'; });
        $log[] = 'generator suspends';
        delay(10);
        $log[] = 'generator resumes';
        yield 'b' => spawn(function () use (&$log) { $log[] = 'b runs'; return 'B'; });
        $log[] = 'generator ends';
    } finally {
        $log[] = 'generator finally';
    }
}
$gen = source($log);
$log[] = 'before await_all';
[$results, $errors] = await_all($gen);
$log[] = 'after await_all';
echo implode("\n", $log), "\n";
var_dump($results, $errors);

// A decided wait stops pulling: the generator is left at its suspension point by a cancellation.
$log = [];
function endless(array &$log) {
    try {
        for ($i = 0; ; $i++) {
            $log[] = "yield $i";
            yield "k$i" => spawn(fn() => "r$i");
            delay(5);
        }
    } catch (Async\AsyncCancellation $e) {
        $log[] = 'generator cancelled: ' . $e->getMessage();
        throw $e;
    } finally {
        $log[] = 'endless finally';
    }
}
var_dump(await_any_or_fail(endless($log)));
$log[] = 'returned';
suspend(); // the helper unwinds the generator in its own turn
echo implode("\n", $log), "\n";

// A trigger already complete decides at once: nothing more is pulled.
$pulled = [];
$gen = (function () use (&$pulled) {
    $pulled[] = 'first';
    yield Future::completed('ready');
    $pulled[] = 'second';
    yield spawn(fn() => 'later');
})();
var_dump(await_any_or_fail($gen), $pulled);

// Keys: explicit, automatic, duplicated (the later one wins, at the first one's position), with nulls.
$keys = (function () {
    yield 'x' => Future::completed('x1');
    yield Future::completed('auto0');
    yield null;
    yield 'x' => Future::completed('x2');
    yield 'y' => Future::completed('y');
})();
var_dump(await_all($keys)[0]);

// await_first_success pulls until a success, skipping failures.
$pulled = [];
$gen = (function () use (&$pulled) {
    foreach (['bad1', 'bad2', 'good', 'unreached'] as $name) {
        $pulled[] = $name;
        yield $name => str_starts_with($name, 'bad') ? Future::failed(new Exception($name)) : Future::completed($name);
    }
})();
[$first, $errors] = await_first_success($gen);
var_dump($first, array_keys($errors), $pulled);
?>
--EXPECT--
before await_all
pull a
generator suspends
a runs
generator resumes
generator ends
generator finally
b runs
after await_all
array(2) {
  ["a"]=>
  string(1) "A"
  ["b"]=>
  string(1) "B"
}
array(0) {
}
string(2) "r0"
yield 0
returned
generator cancelled: Coroutine cancelled
endless finally
string(5) "ready"
array(1) {
  [0]=>
  string(5) "first"
}
array(3) {
  ["x"]=>
  string(2) "x2"
  [0]=>
  string(5) "auto0"
  ["y"]=>
  string(1) "y"
}
string(4) "good"
array(2) {
  [0]=>
  string(4) "bad1"
  [1]=>
  string(4) "bad2"
}
array(3) {
  [0]=>
  string(4) "bad1"
  [1]=>
  string(4) "bad2"
  [2]=>
  string(4) "good"
}
