--TEST--
Scope: safe scopes turn started coroutines into zombies; awaitCompletion ignores them, awaitAfterCancellation waits
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay, timeout};

// Children of the main scope inherit its safe flag.
$z = Scope::inherit();
$log = [];
$started = $z->spawn(function () use (&$log) { delay(30); $log[] = "zombie finished"; return "z"; });
delay(1);
$notStarted = $z->spawn(function () use (&$log) { $log[] = "never"; });
$z->cancel();
var_dump($z->isCancelled(), $z->isFinished());
try { await($notStarted); } catch (Async\AsyncCancellation $e) { echo "not started: cancelled\n"; }
$z->awaitAfterCancellation(null, timeout(2000));
var_dump(await($started), $log);

// asNotSafely(): the same cancel now cancels started coroutines.
$n = Scope::inherit()->asNotSafely();
$c = $n->spawn(function () { delay(5000); });
delay(1);
$n->cancel();
try { await($c); } catch (Async\AsyncCancellation $e) { echo "not safe: ", $e->getMessage(), "\n"; }

// new Scope() is not safe; allowZombies() makes it safe; disposeSafely() is always safe.
$r = (new Scope())->allowZombies();
$rc = $r->spawn(function () { delay(10); return "kept running"; });
delay(1);
$r->dispose();
var_dump(await($rc));
$d = new Scope();
$dc = $d->spawn(function () { delay(10); return "disposed safely"; });
delay(1);
$d->disposeSafely();
var_dump($d->isClosed(), await($dc));
?>
--EXPECT--
bool(true)
bool(true)
not started: cancelled
string(1) "z"
array(1) {
  [0]=>
  string(15) "zombie finished"
}
not safe: Scope was cancelled
string(12) "kept running"
bool(true)
string(15) "disposed safely"
