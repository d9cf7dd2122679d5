--TEST--
FutureState: one-shot completion; a second complete()/error() names the first completion's site
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};

$s = new FutureState();
$f = new Future($s);
$s->complete(1);                                       // line 6
foreach ([fn() => $s->complete(2), fn() => $s->error(new Exception("x"))] as $again) {
    try { $again(); } catch (Async\AsyncException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
}
var_dump($f->await());

$s = new FutureState();
$f = new Future($s);
(function () use ($s) {
    $s->error(new Exception("first"));                 // line 15
})();
try { $s->complete(3); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }
try { $f->await(); } catch (Exception $e) { echo $e->getMessage(), "\n"; }

try { $s->error("not a throwable"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { $s->complete(); } catch (ArgumentCountError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECTF--
Async\AsyncException: FutureState is already completed at %s004-one-shot.php:6
Async\AsyncException: FutureState is already completed at %s004-one-shot.php:6
int(1)
FutureState is already completed at %s004-one-shot.php:15
first
Async\FutureState::error(): Argument #1 ($throwable) must be of type Throwable, string given
Async\FutureState::complete() expects exactly 1 argument, 0 given
