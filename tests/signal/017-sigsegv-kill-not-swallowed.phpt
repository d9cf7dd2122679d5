--TEST--
Signals: a SIGSEGV sent with kill() or sigqueue-like raise() ends the process as in stock PHP, also once coroutines ran on the stack arena (whose guard-page handler used to swallow it); the child of pcntl_fork() and exec'd children do not keep that handler
--DESCRIPTION--
The stack arena's SIGSEGV handler names a guard-page fault of a coroutine; any other SIGSEGV goes
back to the previous disposition. A real fault happens again when the handler returns, but a
signal sent by kill() (si_code <= 0) did not: the process went on running. Each case runs in a
child php; proc_close() reports what stock PHP reports for a child killed by a signal.
--EXTENSIONS--
posix
pcntl
--SKIPIF--
<?php
if (getenv('USE_ZEND_ALLOC') === '0') die('skip valgrind takes the SIGSEGV itself');
?>
--FILE--
<?php
$module = getenv('ASYNC_SO') ?: ini_get('extension_dir') . '/async.so';
// posix and pcntl for the children: loaded unless this PHP has them built in
$builtin = array_map('strtolower', explode("\n", (string) shell_exec(escapeshellarg(PHP_BINARY) . ' -n -m')));
$base = [PHP_BINARY, '-n'];
foreach (['posix', 'pcntl'] as $ext) {
    if (!in_array($ext, $builtin, true)) {
        array_push($base, '-d', "extension=$ext");
    }
}
$cases = [
    'stock PHP, kill()' => [false, 'posix_kill(getmypid(), SIGSEGV);'],
    'a coroutine ran first, kill() from main' => [true,
        'Async\await(Async\spawn(fn () => 1)); posix_kill(getmypid(), SIGSEGV);'],
    'kill() from inside a coroutine' => [true,
        'Async\await(Async\spawn(fn () => posix_kill(getmypid(), SIGSEGV)));'],
    'kill() by another process' => [true,
        'Async\await(Async\spawn(fn () => 1)); exec("kill -SEGV " . getmypid()); usleep(200000);'],
];
foreach ($cases as $what => [$async, $code]) {
    $args = $base;
    if ($async) {
        $args = array_merge($args, ['-d', "extension=$module"]);
    }
    $args = array_merge($args, ['-r', $code . ' echo "still running\n";']);
    $p = proc_open($args, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]);
    stream_get_contents($pipes[2]);
    $rc = proc_close($p);
    echo "$what: ", $out === '' ? 'ended' : trim($out), ", proc_close() ", $rc, "\n";
}

// The child of pcntl_fork() (after coroutines ran) and a child exec'd by proc_open() have
// PHP's own SIGSEGV disposition: /proc/PID/status shows whether SIGSEGV (bit 11) is caught.
$code = <<<'PHP'
    function segv_caught(int $pid): string {
        preg_match('/^SigCgt:\s*([0-9a-f]+)/m', file_get_contents("/proc/$pid/status"), $m);
        return (hexdec(substr($m[1], -4)) >> 10) & 1 ? 'caught' : 'not caught';
    }
    Async\await(Async\spawn(fn () => 1));
    echo 'the parent, after a coroutine: SIGSEGV ', segv_caught(getmypid()), "\n";
    $pid = pcntl_fork();
    if ($pid === 0) {
        echo 'the child of pcntl_fork(): SIGSEGV ', segv_caught(getmypid()), "\n";
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    $p = proc_open(['sleep', '5'], [], $pipes);
    usleep(100000);
    echo 'a child of proc_open(): SIGSEGV ', segv_caught(proc_get_status($p)['pid']), "\n";
    proc_terminate($p, 9);
    proc_close($p);
    PHP;
$p = proc_open(array_merge($base, ['-d', "extension=$module", '-r', $code]),
    [1 => ['pipe', 'w']], $pipes);
echo stream_get_contents($pipes[1]);
proc_close($p);
?>
--EXPECT--
stock PHP, kill(): ended, proc_close() 11
a coroutine ran first, kill() from main: ended, proc_close() 11
kill() from inside a coroutine: ended, proc_close() 11
kill() by another process: ended, proc_close() 11
the parent, after a coroutine: SIGSEGV caught
the child of pcntl_fork(): SIGSEGV not caught
a child of proc_open(): SIGSEGV not caught
