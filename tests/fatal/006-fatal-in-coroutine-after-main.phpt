--TEST--
A fatal error (E_USER_ERROR, memory exhausted, runaway recursion) in a coroutine that runs after the main script: it is reported, the other coroutines are cancelled (their finally blocks, Coroutine::finally and Scope::finally handlers run), and every remaining shutdown function still runs; exit status 255
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';

function run_child(string $how): string
{
    $fatal = [
        'user' => 'trigger_error("user fatal", E_USER_ERROR);',
        'memory' => '$a = []; while (true) { $a[] = str_repeat("x", 1 << 20); }',
        'recursion' => '$f = function (int $n) use (&$f): int { return $f($n + 1) + 1; }; $f(0);',
    ][$how];
    $code = <<<PHP
<?php
use function Async\{spawn, delay};
register_shutdown_function(fn() => print("shutdown function 1\\n"));
\$scope = new Async\Scope();
\$scope->finally(function () { echo "Scope::finally handler\\n"; });
\$waiter = \$scope->spawn(function () {
    try {
        delay(10000);
    } finally {
        echo "waiter's finally block\\n";
    }
});
\$waiter->finally(function () { echo "Coroutine::finally handler\\n"; });
spawn(function () {
    register_shutdown_function(fn() => print("shutdown function 3 (registered by the coroutine)\\n"));
    delay(5);
    echo "the coroutine dies\\n";
    $fatal
    echo "not reached\\n";
});
register_shutdown_function(fn() => print("shutdown function 2\\n"));
echo "main ends\\n";
PHP;
    $file = tempnam(sys_get_temp_dir(), 'async-fatal') . '.php';
    file_put_contents($file, $code);
    /* the child runs with PHP's allocator (the valgrind lane sets USE_ZEND_ALLOC=0 for this
     * process): the memory limit needs it */
    $env = getenv();
    unset($env['USE_ZEND_ALLOC']);
    $p = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-d', 'display_errors=1',
        '-d', 'error_reporting=E_ALL & ~E_DEPRECATED', /* E_USER_ERROR is deprecated from 8.4 */
        '-d', 'memory_limit=32M',
        '-d', 'fatal_error_backtraces=0', /* 8.5 prints a stack trace after the error; older PHPs ignore it */
        $file], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $rc = proc_close($p);
    unlink($file);
    $out = preg_replace('~ in /\S+ on line \d+~', ' in FILE', $out);
    /* a debug PHP also names the allocation site */
    $out = preg_replace('~exhausted (at \S+ )?\(tried to allocate \d+ bytes\)~', 'exhausted (tried to allocate N bytes)', $out);
    return trim($out) . "\n[exit $rc]\n";
}

foreach (['user', 'memory', 'recursion'] as $how) {
    echo "== $how\n", run_child($how);
}
?>
--EXPECT--
== user
main ends
the coroutine dies

Fatal error: user fatal in FILE
waiter's finally block
Coroutine::finally handler
Scope::finally handler
shutdown function 1
shutdown function 2
shutdown function 3 (registered by the coroutine)
[exit 255]
== memory
main ends
the coroutine dies

Fatal error: Allowed memory size of 33554432 bytes exhausted (tried to allocate N bytes) in FILE
waiter's finally block
Coroutine::finally handler
Scope::finally handler
shutdown function 1
shutdown function 2
shutdown function 3 (registered by the coroutine)
[exit 255]
== recursion
main ends
the coroutine dies

Fatal error: Allowed memory size of 33554432 bytes exhausted (tried to allocate N bytes) in FILE
waiter's finally block
Coroutine::finally handler
Scope::finally handler
shutdown function 1
shutdown function 2
shutdown function 3 (registered by the coroutine)
[exit 255]
