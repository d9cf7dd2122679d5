--TEST--
Future: "Future created at … was never used; … to suppress this warning" warning on disposal, unless awaited, chained, subscribed to, cancelled or ignored
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, delay};

echo "-- warned\n";
$s = new FutureState();             // a writer nobody reads
$s->complete(1);
unset($s);
Future::completed(2);               // dropped at once
$s = new FutureState();             // pending, dropped
$f = new Future($s);
unset($s, $f);
function inner() { $s = new FutureState(); $s->complete(3); } // dies with the frame
inner();

echo "-- not warned\n";
$a = Future::completed(1); await($a); unset($a);
$b = Future::completed(1); $b->await(); unset($b);
$c = Future::completed(1); $c->map(fn($v) => $v)->ignore(); unset($c);
$d = Future::completed(1); $d->catch(fn($e) => null)->ignore(); unset($d);
$e = Future::completed(1); $e->finally(fn() => null)->ignore(); unset($e);
$g = Future::completed(1); $g->ignore(); unset($g);
$h = new FutureState(); $h->ignore(); $h->complete(1); unset($h);
$i = new FutureState(); $i->complete(1); (new Future($i))->ignore(); unset($i);  // either side's ignore()
$j = new FutureState(); (new Future($j))->cancel(); unset($j);
// Used as a cancellation token for someone else's wait.
$k = new FutureState();
$co = spawn(function () { delay(5); return "done"; });
var_dump(await($co, new Future($k)));
unset($k);
// Only a reader was awaited; the writer shares its future.
$l = new FutureState();
$lf = new Future($l);
spawn(fn() => $l->complete("via reader"));
var_dump(await($lf));
unset($l, $lf);

echo "-- at shutdown\n";
$kept = Future::completed("never read");
?>
--EXPECTF--
-- warned

Warning: Future created at %s011-warning-never-used.php:6 was never used; call await(), map(), catch(), finally() or ignore() to suppress this warning in %s on line %d

Warning: Future created at %s011-warning-never-used.php:9 was never used; call await(), map(), catch(), finally() or ignore() to suppress this warning in %s on line %d

Warning: Future created at %s011-warning-never-used.php:10 was never used; call await(), map(), catch(), finally() or ignore() to suppress this warning in %s on line %d

Warning: Future created at %s011-warning-never-used.php:13 was never used; call await(), map(), catch(), finally() or ignore() to suppress this warning in %s on line %d
-- not warned
string(4) "done"
string(10) "via reader"
-- at shutdown

Warning: Future created at %s011-warning-never-used.php:39 was never used; call await(), map(), catch(), finally() or ignore() to suppress this warning in Unknown on line 0
