--TEST--
spawn() passes positional, variadic and named arguments by value; any callable works
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

function f($a, $b = "B", ...$rest) { return "$a|$b|" . json_encode($rest); }
var_dump(await(spawn('f', 1)));
var_dump(await(spawn('f', 1, 2, 3, 4)));
var_dump(await(spawn('f', b: "nb", a: "na")));
var_dump(await(spawn('f', 1, x: 5)));
var_dump(await(spawn(task: 'f', a: "named-task")));

function g(int $x) { return $x; }
foreach ([fn() => spawn('f'), fn() => spawn('g', "abc"), fn() => spawn('g', y: 1)] as $make) {
    try {
        await($make());
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}

// By value: later changes in the spawner are not seen, changes in the coroutine do not leak.
$arr = [1, 2];
$c = spawn(function ($a) { $a[] = 3; return $a; }, $arr);
$arr[] = 99;
var_dump(json_encode(await($c)), json_encode($arr));

$s = "before";
$c = spawn(function ($x) { return $x; }, $s);
$s = "after";
var_dump(await($c));

// Callable forms.
class K {
    function m($x) { return "m$x"; }
    static function s($x) { return "s$x"; }
    function __invoke($x) { return "i$x"; }
}
var_dump(await(spawn([new K, 'm'], 1)));
var_dump(await(spawn('K::s', 2)));
var_dump(await(spawn([K::class, 's'], 3)));
var_dump(await(spawn(new K, 4)));
var_dump(await(spawn(strtoupper(...), "abc")));
var_dump(await(spawn('strlen', "four")));
var_dump(await(spawn('str_pad', "x", 3, pad_type: STR_PAD_LEFT, pad_string: "-")));
?>
--EXPECT--
string(6) "1|B|[]"
string(9) "1|2|[3,4]"
string(8) "na|nb|[]"
string(11) "1|B|{"x":5}"
string(15) "named-task|B|[]"
ArgumentCountError: Too few arguments to function f(), 0 passed and at least 1 expected
TypeError: g(): Argument #1 ($x) must be of type int, string given
Error: Unknown named parameter $y
string(7) "[1,2,3]"
string(8) "[1,2,99]"
string(6) "before"
string(2) "m1"
string(2) "s2"
string(2) "s3"
string(2) "i4"
string(3) "ABC"
int(4)
string(3) "--x"
