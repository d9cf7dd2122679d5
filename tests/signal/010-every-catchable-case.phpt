--TEST--
signal(): every catchable case is delivered as itself (SIGBREAK and SIGABRT2 pass through as 21 and 22)
--EXTENSIONS--
posix
--SKIPIF--
<?php
if (str_contains(file_get_contents('/proc/self/maps'), 'libasan')) die('skip ASan takes SIGFPE and SIGSEGV sent by kill() as deadly and aborts the process (its handler gets them forwarded)');
?>
--FILE--
<?php
use Async\Signal;
use function Async\{signal, await};

foreach (Signal::cases() as $case) {
    if ($case === Signal::SIGKILL) {
        continue;
    }
    $f = signal($case);
    posix_kill(getmypid(), $case->value);
    $got = await($f);
    echo $case->name, ": ", $got === $case ? "ok" : "got {$got->name}", "\n";
}
echo "alive\n";
?>
--EXPECT--
SIGHUP: ok
SIGINT: ok
SIGQUIT: ok
SIGILL: ok
SIGABRT: ok
SIGFPE: ok
SIGUSR1: ok
SIGSEGV: ok
SIGUSR2: ok
SIGTERM: ok
SIGBREAK: ok
SIGABRT2: ok
SIGWINCH: ok
alive
