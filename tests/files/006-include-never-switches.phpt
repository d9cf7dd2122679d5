--TEST--
files: include/require of big files from several coroutines never switches while the engine reads the file (the compiler's state is shared); fread() beside them still yields
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
memory_limit=-1
--FILE--
<?php
use function Async\{spawn, await_all, delay};

$dir = sys_get_temp_dir() . '/async-include-' . getmypid();
@mkdir($dir);
for ($i = 0; $i < 3; $i++) {
    // 8 MB of literal: reading it takes longer than the 2 ms file budget.
    file_put_contents("$dir/c$i.php", "<?php\nclass Included$i { const BIG = '" . str_repeat('x', 8 << 20) . "'; public function id() { return $i; } }\n");
}
spl_autoload_register(function ($class) use ($dir) {
    if (preg_match('/^Included(\d)$/', $class, $m)) {
        require "$dir/c{$m[1]}.php";
    }
});
$tasks = [];
for ($i = 0; $i < 3; $i++) {
    $tasks[] = spawn(function () use ($i) {
        $class = "Included$i";
        return (new $class())->id() . ':' . strlen($class::BIG);
    });
}
$tasks[] = spawn(function () use ($dir) {
    return strlen(file_get_contents("$dir/c0.php")) > (8 << 20) ? 'read' : 'short';
});
[$results, $errors] = await_all($tasks);
echo implode(' ', $results), "\n";
var_dump(count($errors));
for ($i = 0; $i < 3; $i++) {
    unlink("$dir/c$i.php");
}
rmdir($dir);
?>
--EXPECT--
0:8388608 1:8388608 2:8388608 read
int(0)
