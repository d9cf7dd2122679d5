--TEST--
A coroutine cancelled while its lookup runs gets the cancellation; the lookup is dropped cleanly
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

$c = spawn(function () {
    try {
        gethostbyname('localhost');
        echo "not cancelled\n";
    } catch (Async\AsyncCancellation $e) {
        echo "cancelled: ", $e->getMessage(), "\n";
        throw $e;
    }
});
$d = spawn(function () use ($c) {
    $c->cancel(new Async\AsyncCancellation('stop resolving'));
});
try {
    await($c);
} catch (Async\AsyncCancellation $e) {
    echo "await: ", $e->getMessage(), "\n";
}
await($d);

// Lookups still work afterwards, and a cancelled lookup left in flight at the end is harmless.
echo await(spawn(fn() => gethostbyname('localhost'))), "\n";
$e = spawn(fn() => gethostbynamel('localhost'));
$f = spawn(fn() => $e->cancel());
echo "done\n";
?>
--EXPECT--
cancelled: stop resolving
await: stop resolving
127.0.0.1
done
