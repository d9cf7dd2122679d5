--TEST--
Scope: an error whose coroutine handle is still held waits on the handle (the scope still fails together)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay};

$s = Scope::inherit()->asNotSafely();
$other = $s->spawn(function () { delay(5000); });
$c = $s->spawn(function () { throw new RuntimeException("kept"); });
delay(5);
var_dump($s->isCancelled());
try { await($other); } catch (Async\AsyncCancellation $e) { echo "other cancelled\n"; }
for ($i = 0; $i < 2; $i++) {
    try { await($c); } catch (RuntimeException $e) { echo "await: ", $e->getMessage(), "\n"; }
}
echo "end\n";
?>
--EXPECT--
bool(true)
other cancelled
await: kept
await: kept
end
