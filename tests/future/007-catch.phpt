--TEST--
Future::catch(): recovers from an error, is skipped on success, a throw replaces the error
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await};

$s = new FutureState();
$recovered = (new Future($s))->catch(fn(Throwable $e) => "recovered from " . $e->getMessage());
spawn(fn() => $s->error(new RuntimeException("boom")));
var_dump(await($recovered));

// Skipped on success: the value passes through untouched.
$obj = new stdClass;
var_dump(await(Future::completed($obj)->catch(function () { echo "never called\n"; })) === $obj);

// catch() receives the very exception object.
$ex = new DomainException("x");
var_dump(await(Future::failed($ex)->catch(fn($e) => $e === $ex)));

// A catch that throws rejects the child with the new exception.
$rethrown = Future::failed(new RuntimeException("first"))->catch(function (Throwable $e) {
    throw new LogicException("second", 0, $e);
});
try { await($rethrown); } catch (LogicException $e) { echo $e->getMessage(), " <- ", $e->getPrevious()->getMessage(), "\n"; }

// catch() then map(), map() then catch(): the usual pipelines.
var_dump(await(Future::failed(new Exception("e"))->catch(fn() => 1)->map(fn($v) => $v + 1)));
var_dump(await(Future::completed(1)->map(fn($v) => throw new Exception("in map $v"))->catch(fn($e) => $e->getMessage())));
// A catch returning nothing resolves with null.
var_dump(await(Future::failed(new Exception)->catch(function () {})));
?>
--EXPECT--
string(19) "recovered from boom"
bool(true)
bool(true)
second <- first
int(2)
string(8) "in map 1"
NULL
