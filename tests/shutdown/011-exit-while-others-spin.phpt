--TEST--
exit() in a coroutine while main awaits and others keep the run queue busy with suspend(): the loop stops running batches for main's wait, the spinners are cancelled and unwind, the shutdown functions run, and the process exits with the code
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, suspend};

register_shutdown_function(function () use (&$spins) {
    echo "shutdown: spinners stopped after ", $spins['a'] > 0 && $spins['b'] > 0 ? "both ran" : "one never ran", "\n";
});
$spins = ['a' => 0, 'b' => 0];
$spin = function (string $me) use (&$spins) {
    try {
        for (;;) {
            $spins[$me]++;
            suspend();
        }
    } catch (Async\AsyncCancellation $e) {
        echo "$me: ", $e->getMessage(), "\n";
        throw $e;
    } finally {
        echo "$me: finally\n";
    }
};
$a = spawn($spin, 'a');
$b = spawn($spin, 'b');
$quitter = spawn(function () use (&$spins) {
    while ($spins['a'] < 1000 || $spins['b'] < 1000) {
        suspend();
    }
    echo "quitter: exit(3)\n";
    exit(3);
});
try {
    await($a);
} finally {
    echo "main: not a finally that exit() runs\n";
}
echo "not reached\n";
?>
--EXPECT--
quitter: exit(3)
a: Graceful shutdown
a: finally
b: Graceful shutdown
b: finally
shutdown: spinners stopped after both ran
