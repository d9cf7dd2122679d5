--TEST--
gethostbyname(), gethostbynamel() and gethostbyaddr() inside a coroutine give PHP's own answers and warnings
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

/* Only names that never leave the machine: /etc/hosts, literals, and names the resolver refuses
 * before asking a server (an empty label, an over-long label). */
$long = str_repeat('x', 70) . '.test';
$cases = [
    ['gethostbyname', 'localhost'], ['gethostbyname', '127.0.0.1'], ['gethostbyname', '10.1.2.3'],
    ['gethostbyname', 'a..b'], ['gethostbyname', $long], ['gethostbyname', ''], ['gethostbyname', '1'],
    ['gethostbyname', str_repeat('a', 256)],
    ['gethostbynamel', 'localhost'], ['gethostbynamel', '127.0.0.1'], ['gethostbynamel', 'a..b'],
    ['gethostbynamel', $long], ['gethostbynamel', str_repeat('a', 256)],
    ['gethostbyaddr', '127.0.0.1'], ['gethostbyaddr', 'not an address'], ['gethostbyaddr', ''],
    ['gethostbyname', "local\0host"], ['gethostbynamel', "x\0"], ['gethostbyaddr', "127.0.0.1\0"],
];

function run_case(string $fn, string $arg): array
{
    $warnings = [];
    set_error_handler(function ($no, $msg) use (&$warnings) { $warnings[] = $msg; return true; });
    try {
        $r = $fn($arg);
    } catch (Throwable $e) {
        $r = get_class($e) . ': ' . $e->getMessage();
    }
    restore_error_handler();
    return [$r, $warnings];
}

$stock = [];
foreach ($cases as $i => [$fn, $arg]) {
    $stock[$i] = run_case($fn, $arg);
}
$inside = await(spawn(function () use ($cases) {
    $out = [];
    foreach ($cases as $i => [$fn, $arg]) {
        $out[$i] = run_case($fn, $arg);
    }
    return $out;
}));

$same = 0;
foreach ($cases as $i => [$fn, $arg]) {
    if ($stock[$i] === $inside[$i]) {
        $same++;
    } else {
        echo "DIFFERENT: $fn(", json_encode($arg), "): ", json_encode($stock[$i]), " vs ", json_encode($inside[$i]), "\n";
    }
}
echo $same, " of ", count($cases), " identical\n";
var_dump(gethostbyname('localhost') === '127.0.0.1');
echo $inside[5][1][0] ?? 'no warning', "\n";
echo $inside[7][1][0] ?? 'no warning', "\n";
echo $inside[14][1][0] ?? 'no warning', "\n";
echo $inside[16][0], "\n";
?>
--EXPECT--
19 of 19 identical
bool(true)
no warning
gethostbyname(): Host name cannot be longer than 255 characters
gethostbyaddr(): Address is not a valid IPv4 or IPv6 address
ValueError: gethostbyname(): Argument #1 ($hostname) must not contain any null bytes
