--TEST--
signal(): a Future dropped unsettled (or the loser of await_any_or_fail) disarms its wait and never keeps the script alive; a pcntl handler installed during a wait still runs and the wait still completes once the loop has run
--EXTENSIONS--
posix
pcntl
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';

/* Runs $code in a child; "hung" when it is still running after 10 s (the old behaviour). */
function child(string $code): string
{
    $file = tempnam(sys_get_temp_dir(), 'async-signal-drop') . '.php';
    file_put_contents($file, $code);
    /* posix is shared on Debian's PHP, built in on a PHP built from source */
    $posix = is_file(PHP_EXTENSION_DIR . '/posix.so') ? ['-d', 'extension=posix'] : [];
    $p = proc_open(array_merge([PHP_BINARY, '-n'], $posix, ['-d', 'extension=' . async_module_path(),
        '-d', 'display_errors=1', $file]), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = '';
    $deadline = microtime(true) + 10 * slow_factor();
    stream_set_blocking($pipes[1], false);
    while (microtime(true) < $deadline) {
        $r = [$pipes[1]];
        $w = $e = null;
        if (stream_select($r, $w, $e, 0, 100000)) {
            $chunk = fread($pipes[1], 8192);
            if ($chunk === '' && feof($pipes[1])) {
                break;
            }
            $out .= $chunk;
        }
    }
    /* output closed: the child is exiting; a hung one never closes it (deadline above) */
    while (($status = proc_get_status($p))['running'] && microtime(true) < $deadline) {
        usleep(10000);
    }
    if ($status['running']) {
        proc_terminate($p, 9);
        $out .= "hung\n";
    }
    proc_close($p);
    unlink($file);
    return preg_replace('~ in /\S+ on line \d+~', '', preg_replace('~at /\S+:\d+~', 'at FILE:LINE', $out));
}

echo "== dropped\n", child(<<<'PHP'
<?php
$f = Async\signal(Async\Signal::SIGUSR1);
unset($f);
echo "end of script\n";
PHP);

echo "== loser of await_any_or_fail\n", child(<<<'PHP'
<?php
use function Async\{spawn, await_any_or_fail};
echo await_any_or_fail([spawn(fn() => "fast"), Async\signal(Async\Signal::SIGUSR2)]), "\n";
echo "end of script\n";
PHP);

echo "== kept but never awaited: still armed, ended by its token\n", child(<<<'PHP'
<?php
$f = Async\signal(Async\Signal::SIGUSR1, Async\timeout(50));
$f->catch(fn($e) => print(get_class($e) . "\n"))->ignore();
echo "end of script\n";
PHP);

echo "== pcntl handler installed during the wait\n", child(<<<'PHP'
<?php
use function Async\{signal, spawn, await, delay};
$f = signal(Async\Signal::SIGUSR1);
pcntl_signal(SIGUSR1, function () { echo "pcntl handler\n"; });
spawn(function () { delay(5); posix_kill(getmypid(), SIGUSR1); });
echo "wait: ", await($f)->name, "\n";
pcntl_signal_dispatch();
PHP);
?>
--EXPECT--
== dropped

Warning: Future created at FILE:LINE was never used; call await(), map(), catch(), finally() or ignore() to suppress this warning
end of script
== loser of await_any_or_fail
fast
end of script
== kept but never awaited: still armed, ended by its token
end of script
Async\TimeoutException
== pcntl handler installed during the wait
wait: SIGUSR1
pcntl handler
