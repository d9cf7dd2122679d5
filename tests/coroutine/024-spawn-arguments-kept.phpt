--TEST--
spawn(): the callable and its arguments are kept in the coroutine (none, one, two inline; more and named ones as before); they are released when it ends, when it is cancelled before it starts and when the request ends with it never run
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, suspend};

class Tracked
{
    public function __construct(public string $name) {}
    public function __destruct() { echo "released {$this->name}\n"; }
}

$join = fn (...$a) => implode(',', array_map(fn ($x) => $x instanceof Tracked ? $x->name : (string) $x, $a));
echo await(spawn($join)), "|\n";
echo await(spawn($join, 1)), "\n";
echo await(spawn($join, 1, 2)), "\n";
echo await(spawn($join, 1, 2, 3)), "\n";
echo await(spawn($join, 1, 2, 3, 4, 5)), "\n";
echo await(spawn(fn (int $a, int $b = 0, int $c = 0) => "$a $b $c", 1, c: 3)), "\n";
echo await(spawn('str_repeat', 'ab', 3)), "\n";

// Arguments are copies: changing the caller's variables after the spawn changes nothing.
$s = 'before';
$arr = [1];
$co = spawn(fn ($x, $y) => "$x " . count($y), $s, $arr);
$s = 'after';
$arr[] = 2;
echo await($co), "\n";

// Released as soon as the body ends, not when the handle goes.
$co = spawn(function (Tracked $a, Tracked $b) { echo "body with {$a->name}, {$b->name}\n"; }, new Tracked('one'), new Tracked('two'));
await($co);
echo "after await, handle alive\n";
$co = spawn(function (Tracked ...$t) { echo "body with ", count($t), "\n"; }, new Tracked('x1'), new Tracked('x2'), new Tracked('x3'));
await($co);
echo "after await of three\n";

// Cancelled before it ran: released at once, the body never runs.
$co = spawn(function (Tracked $t) { echo "not reached\n"; }, new Tracked('cancelled'));
$co->cancel();
try { await($co); } catch (Async\AsyncCancellation $e) { echo "cancelled: ", $e->getMessage(), "\n"; }

// A cycle through an argument (the coroutine handed to itself) is collected.
$holder = new stdClass;
$co = spawn(function ($h) { suspend(); return 'cycle ran'; }, $holder);
$holder->co = $co;
echo await($co), "\n";
unset($co, $holder);
echo "collected: ", gc_collect_cycles() >= 0 ? 'yes' : 'no', "\n";

// Never run: the request ends with the arguments still held.
spawn(function (Tracked $t) { echo "ran at the end: {$t->name}\n"; }, new Tracked('pending'));
echo "end of script\n";
?>
--EXPECT--
|
1
1,2
1,2,3
1,2,3,4,5
1 0 3
ababab
before 1
body with one, two
released one
released two
after await, handle alive
body with 3
released x1
released x2
released x3
after await of three
released cancelled
cancelled: Coroutine cancelled
cycle ran
collected: yes
end of script
ran at the end: pending
released pending
