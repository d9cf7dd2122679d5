--TEST--
Many coroutines resolve at once; each gets its own answer
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

$names = [];
for ($i = 0; $i < 64; $i++) {
    // Literals resolve on the thread pool like names do, and each has a different answer.
    $names[$i] = $i % 4 === 0 ? 'localhost' : "10.0.0.$i";
}
$started = 0;
$cs = [];
foreach ($names as $i => $name) {
    $cs[$i] = spawn(function () use ($i, $name, &$started) {
        $started++;
        $ip = gethostbyname($name);
        // Every coroutine started before any lookup answered: they waited together.
        return [$ip, $started];
    });
}
$ok = 0;
foreach ($cs as $i => $c) {
    [$ip, $seen] = await($c);
    $want = $i % 4 === 0 ? '127.0.0.1' : "10.0.0.$i";
    if ($ip === $want && $seen === 64) {
        $ok++;
    } else {
        echo "$i: $ip (saw $seen started)\n";
    }
}
echo "$ok ok\n";
?>
--EXPECT--
64 ok
