--TEST--
Future: "Unhandled exception in Future" warning for an error nobody observed; ignore() suppresses it, cancellations never warn
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState, AsyncCancellation};
use function Async\{spawn, await, delay};

echo "-- warned\n";
Future::failed(new RuntimeException("dropped"));
$s = new FutureState();
$s->error(new LogicException("written, never read"));
unset($s);
// A throwing callable rejects a child nobody holds: that child warns once the chain is done.
Future::completed(1)->map(fn() => throw new DomainException("from a dropped map() child"));
delay(1);
// Awaited only after an error was stored? No: a reader that just exists does not observe it.
$s = new FutureState();
$f = new Future($s);
$s->error(new Exception("reader never awaited"));
unset($s, $f);

echo "-- not warned\n";
$a = Future::failed(new Exception("a"));
try { await($a); } catch (Exception) {}
unset($a);
$b = Future::failed(new Exception("b"))->ignore();
unset($b);
$c = new FutureState();
$c->ignore();
$c->error(new Exception("c"));
unset($c);
// A chain takes responsibility for its parent's error: only the child could warn.
$d = Future::failed(new Exception("d"));
$d->catch(fn() => "handled")->ignore();
unset($d);
// Cancellations are never "unhandled".
$e = new FutureState();
(new Future($e))->cancel();
unset($e);
$g = new FutureState();
$g->error(new AsyncCancellation("a cancellation"));
(new Future($g))->ignore();
unset($g);
// ignore() on a child silences the child, the error still reaches nobody else.
Future::completed(1)->map(fn() => throw new Exception("ignored child"))->ignore();
delay(1);
echo "end\n";
?>
--EXPECTF--
-- warned

Warning: Unhandled exception in Future: dropped; use catch() or ignore() to handle it (created at %s, completed at %s) in %s on line %d

Warning: Unhandled exception in Future: written, never read; use catch() or ignore() to handle it (created at %s012-warning-unhandled.php:7, completed at %s012-warning-unhandled.php:8) in %s on line %d

Warning: Unhandled exception in Future: from a dropped map() child; use catch() or ignore() to handle it (created at %s, completed at %s) in %s on line %d

Warning: Unhandled exception in Future: reader never awaited; use catch() or ignore() to handle it (created at %s, completed at %s) in %s on line %d
-- not warned
end
