--TEST--
spawn() takes every kind of callable: closures (bound, static, scoped, first-class, fromCallable of __call and __callStatic) read straight from the object, and strings, arrays and invokables the engine's way; invalid ones fail with PHP's own TypeError; the spawn site is the nearest user frame
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Scope;
use function Async\{spawn, await};

class Box
{
    private int $secret = 7;
    public function bound(): Closure { return function (int $add) { return $this->secret + $add; }; }
    public static function staticOne(): Closure { return static fn (int $x) => static::class . ":$x"; }
    private function hidden(int $x): int { return $x * $this->secret; }
    public function firstClass(): Closure { return $this->hidden(...); }
    public function __call($name, $args) { return "__call $name(" . implode(',', $args) . ')'; }
    public static function __callStatic($name, $args) { return "__callStatic $name(" . implode(',', $args) . ')'; }
    public function __invoke(int $x): string { return "invoked $x"; }
    public static function plain(int $x): int { return $x + 100; }
}
class Sub extends Box {}

class Plain { private function p(): void {} }

function named(int $a, int $b = 2): int { return $a * 10 + $b; }

$box = new Box();
$byRef = function (array &$list) { $list[] = 'added'; return count($list); };
$cases = [
    'bound closure'         => [$box->bound(), 5],
    'static closure, LSB'   => [Sub::staticOne(), 3],
    'first-class private'   => [$box->firstClass(), 6],
    'first-class function'  => [named(...), 4],
    'first-class internal'  => [strrev(...), 'abc'],
    'fromCallable __call'   => [Closure::fromCallable([$box, 'magic']), 1, 2],
    'fromCallable static'   => [Closure::fromCallable([Box::class, 'magicStatic']), 3],
    'bindTo another object' => [Closure::bind(function () { return $this->secret * 2; }, $box, Box::class)],
    'arrow fn capture'      => [fn () => $box::plain(1)],
    'string function'       => ['named', 5, 6],
    'string internal'       => ['str_repeat', 'ab', 3],
    'string static method'  => ['Box::plain', 1],
    'array static method'   => [[Box::class, 'plain'], 2],
    'array method, __call'  => [[$box, 'viaArray'], 9],
    'invokable object'      => [$box, 8],
    'named args'            => ['named', 'b' => 9, 'a' => 1],
];
foreach ($cases as $label => $args) {
    $task = array_shift($args);
    echo str_pad($label, 22), ' => ', var_export(await(spawn($task, ...$args)), true), "\n";
}

// A by-reference parameter given a value: PHP's warning, then the call goes on with a copy.
$list = ['x'];
$n = await(spawn($byRef, $list));
echo 'by-ref value: ', $n, ' (caller still has ', count($list), ")\n";

// Scope::spawn() and the same closure spawned many times.
$scope = new Scope();
$sum = 0;
$add = static fn (int $i): int => $i;
$cs = [];
for ($i = 1; $i <= 100; $i++) { $cs[] = $scope->spawn($add, $i); }
foreach ($cs as $c) { $sum += await($c); }
echo "scope spawns: $sum\n";

// Invalid callables: PHP's own messages.
foreach (['no_such_function', [new Plain(), 'p'], 42, new stdClass(), [Plain::class, 'nope']] as $bad) {
    try {
        spawn($bad);
        echo "no error\n";
    } catch (TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}

// The spawn site: the nearest user frame, also when spawn() is called by an internal function.
$c = spawn(fn () => 1); $line = __LINE__;
[$file, $at] = $c->getSpawnFileAndLine();
echo 'site: ', basename($file), ' ', $at === $line ? 'same line' : "line $at vs $line", "\n";
$cs = array_map('Async\spawn', [fn () => 1]); $line = __LINE__;
echo 'via array_map: ', $cs[0]->getSpawnFileAndLine()[1] === $line ? 'same line' : 'other line', "\n";
$cs = array_map(fn ($f) => spawn($f), [fn () => 1]); $line = __LINE__;
echo 'in an arrow fn: ', $cs[0]->getSpawnFileAndLine()[1] === $line ? 'same line' : 'other line', "\n";
echo 'done: ', array_sum(array_map(fn ($c) => await($c), $cs)), "\n";
?>
--EXPECTF--
bound closure          => 12
static closure, LSB    => 'Sub:3'
first-class private    => 42
first-class function   => 42
first-class internal   => 'cba'
fromCallable __call    => '__call magic(1,2)'
fromCallable static    => '__callStatic magicStatic(3)'
bindTo another object  => 14
arrow fn capture       => 101
string function        => 56
string internal        => 'ababab'
string static method   => 101
array static method    => 102
array method, __call   => '__call viaArray(9)'
invokable object       => 'invoked 8'
named args             => 19

Warning: {closure%S}(): Argument #1 ($list) must be passed by reference, value given in %s on line %d
by-ref value: 2 (caller still has 1)
scope spawns: 5050
TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, function "no_such_function" not found or invalid function name
TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, cannot access private method Plain::p()
TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, no array or string given
TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, no array or string given
TypeError: Async\spawn(): Argument #1 ($task) must be a valid callback, class Plain does not have a method "nope"
site: 022-spawn-callable-kinds.php same line
via array_map: same line
in an arrow fn: same line
done: 1
