--TEST--
The main script's end: an AsyncCancellation reaching its top uncaught ends it quietly (exit status 0, the others run on, shutdown functions run); exit() in it starts the graceful shutdown like exit() in a coroutine (the others are cancelled and run their finally blocks first); before the runtime launched both are stock
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';

function run_child(string $code): string
{
    $file = tempnam(sys_get_temp_dir(), 'async-main-end') . '.php';
    file_put_contents($file, $code);
    $p = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-d', 'display_errors=1', $file],
        [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $rc = proc_close($p);
    unlink($file);
    $out = preg_replace('~ in /\S+:\d+~', ' in FILE:LINE', $out);
    $out = preg_replace('~(thrown in) \S+ (on line) \d+~', '$1 FILE $2 LINE', $out);
    return trim($out) . "\n[exit $rc]\n";
}

echo "== uncaught cancellation at the top of main\n";
echo run_child(<<<'PHP'
<?php
use function Async\{spawn, await, delay};
register_shutdown_function(fn() => print("shutdown function\n"));
$other = spawn(function () { delay(30); echo "other finished normally\n"; });
$c = spawn(fn() => throw new Async\AsyncCancellation("cancelled on purpose"));
await($c);
echo "not reached\n";
PHP);

echo "== exit() in main\n";
echo run_child(<<<'PHP'
<?php
use function Async\{spawn, delay};
register_shutdown_function(fn() => print("shutdown function\n"));
$other = spawn(function () {
    try {
        delay(5000);
        echo "not reached\n";
    } catch (Async\AsyncCancellation $e) {
        echo "other: ", $e->getMessage(), "\n";
    } finally {
        echo "other: finally\n";
    }
});
delay(1);
echo "main exits\n";
exit(3);
PHP);

echo "== other errors still fatal\n";
echo run_child(<<<'PHP'
<?php
use function Async\{spawn, await};
await(spawn(fn() => throw new RuntimeException("a real error")));
PHP);

echo "== before the runtime launched: stock\n";
echo run_child(<<<'PHP'
<?php
register_shutdown_function(fn() => print("shutdown function\n"));
throw new Async\AsyncCancellation("thrown before any spawn");
PHP);
echo run_child(<<<'PHP'
<?php
echo "exit before any spawn\n";
exit(4);
PHP);
?>
--EXPECTF--
== uncaught cancellation at the top of main
other finished normally
shutdown function
[exit 0]
== exit() in main
main exits
other: Graceful shutdown
other: finally
shutdown function
[exit 3]
== other errors still fatal
Fatal error: Uncaught RuntimeException: a real error in FILE:LINE
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in FILE on line LINE
[exit 255]
== before the runtime launched: stock
Fatal error: Uncaught Async\AsyncCancellation: thrown before any spawn in FILE:LINE
Stack trace:
#0 {main}
  thrown in FILE on line LINE
shutdown function
[exit 255]
exit before any spawn
[exit 4]
