--TEST--
Future: a cancellation token handed to an API that completes without waiting counts as used (no "never used" warning): await() of a finished coroutine, await_all(), Channel send()/recv() that need not park, Scope::awaitCompletion() of a finished scope; a token nobody was given still warns
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{FutureState, Future, Channel, Scope};
use function Async\{spawn, await, await_all};

function token(): array { $s = new FutureState(); return [$s, new Future($s)]; }

$c = spawn(fn() => 1);
await($c);

[$s1, $t1] = token();
var_dump(await($c, $t1));

[$s2, $t2] = token();
var_dump(count(await_all([$c], $t2)[0]));

$ch = new Channel(1);
[$s3, $t3] = token();
$ch->send("v", $t3);
[$s4, $t4] = token();
var_dump($ch->recv($t4));

$scope = new Scope();
[$s5, $t5] = token();
$scope->awaitCompletion($t5);
echo "scope done\n";

// The control: a token's future that was never handed to anything still warns.
[$s6, $t6] = token();
unset($t1, $t2, $t3, $t4, $t5, $t6);
unset($s1, $s2, $s3, $s4, $s5);
echo "before the control\n";
unset($s6);
echo "end\n";
?>
--EXPECTF--
int(1)
int(1)
string(1) "v"
scope done
before the control

Warning: Future created at %s022-token-used-without-waiting.php:%d was never used; call await(), map(), catch(), finally() or ignore() to suppress this warning in %s on line %d
end
