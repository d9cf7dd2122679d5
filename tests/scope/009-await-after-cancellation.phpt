--TEST--
Scope: awaitAfterCancellation — needs a prior cancel, waits for zombies too, routes errors to the handler or rethrows
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay, timeout};

try { (new Scope())->awaitAfterCancellation(); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }

$s = new Scope();
$s->spawn(function () { try { delay(5000); } finally { throw new LogicException("from finally 1"); } });
$s->spawn(function () { try { delay(5000); } finally { delay(5); throw new LogicException("from finally 2"); } });
$s->spawn(function () { try { delay(5000); } catch (Async\AsyncCancellation $e) { return "quiet"; } });
delay(1);
$s->cancel();
$got = [];
$s->awaitAfterCancellation(function (Throwable $e, Scope $scope) use (&$got, $s) {
    $got[] = $e->getMessage() . ($scope === $s ? " (scope)" : "");
});
sort($got);
print_r($got);
var_dump($s->isFinished());

// Without a handler the error is rethrown.
$r = new Scope();
$r->spawn(function () { try { delay(5000); } finally { throw new RuntimeException("rethrown"); } });
delay(1);
$r->cancel();
try { $r->awaitAfterCancellation(); } catch (RuntimeException $e) { echo "caught: ", $e->getMessage(), "\n"; }

// The token bounds the wait.
$z = (new Scope())->allowZombies();
$zc = $z->spawn(function () { delay(100); return "zombie done"; });
delay(1);
$z->cancel();
try { $z->awaitAfterCancellation(null, timeout(5)); } catch (Async\OperationCanceledException $e) { echo "token fired\n"; }
$z->awaitAfterCancellation(null, timeout(2000));
var_dump(await($zc));
?>
--EXPECT--
Attempt to await a Scope that has not been cancelled
Array
(
    [0] => from finally 1 (scope)
    [1] => from finally 2 (scope)
)
bool(true)
caught: rethrown
token fired
string(11) "zombie done"
