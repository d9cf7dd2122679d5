--TEST--
pcntl_waitpid()/pcntl_wait() in a coroutine wait for a pcntl_fork()ed child without blocking the process; status, WNOHANG, WUNTRACED, errors and a pcntl_signal(SIGCHLD) handler as stock
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, await_all, delay};

function child(int $ms, int $code): int
{
    $pid = pcntl_fork();
    if ($pid === 0) {
        usleep($ms * 1000);
        exit($code);
    }
    return $pid;
}

$chld = 0;
pcntl_async_signals(true);
pcntl_signal(SIGCHLD, function () use (&$chld) { $chld++; });

/* stock first, before anything is spawned */
$pid = child(10, 3);
$r = pcntl_waitpid($pid, $status);
$stock = [$r === $pid, pcntl_wifexited($status), pcntl_wexitstatus($status)];

/* every fork happens before the coroutines (pcntl_fork() is refused while others run) */
$a = child(300, 6);
$b = child(300, 7);
$c = child(700, 5);
$d = child(1400, 1);
$e = child(10000, 0);
$t0 = hrtime(true);
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) { delay(10); $ticks++; }
});
[$results, $errors] = await_all([
    spawn(function () use ($a) {
        $r = pcntl_waitpid($a, $status, 0, $rusage);
        return [$r === $a, pcntl_wifexited($status), pcntl_wexitstatus($status), is_array($rusage)];
    }),
    spawn(function () use ($b) {
        $r = pcntl_waitpid($b, $status);
        return [$r === $b, pcntl_wifexited($status), pcntl_wexitstatus($status)];
    }),
]);
$elapsed = ms_since($t0);
$done = true;
await($ticker);
echo json_encode([$stock, $results, $errors]), "\n";
echo $elapsed >= 299 ? "waited\n" : "too fast: $elapsed ms\n";
echo $elapsed < 600 * slow_factor() ? "overlapped\n" : "serial: $elapsed ms\n";
echo $ticks >= 10 ? "ticker ran\n" : "ticker starved: $ticks\n";

/* pcntl_wait(): any child (polled): $c exits next */
echo json_encode(await(spawn(function () use ($c) {
    $r = pcntl_wait($status);
    return [$r === $c, pcntl_wexitstatus($status)];
}))), "\n";

/* WNOHANG never waits; a reaped child: -1 and ECHILD as stock */
echo json_encode(await(spawn(function () use ($d) {
    $now = pcntl_waitpid($d, $status, WNOHANG);
    $later = pcntl_waitpid($d, $status);
    $none = pcntl_waitpid($d, $status);
    return [$now, $later === $d, $none, pcntl_get_last_error() === PCNTL_ECHILD];
}))), "\n";

/* WUNTRACED: a stopped child is reported (polled) */
echo json_encode(await(spawn(function () use ($e) {
    spawn(function () use ($e) { delay(50); posix_kill_compat($e, SIGSTOP); });
    $r = pcntl_waitpid($e, $status, WUNTRACED);
    $stopped = [$r === $e, pcntl_wifstopped($status), pcntl_wstopsig($status) === SIGSTOP];
    posix_kill_compat($e, SIGKILL);
    pcntl_waitpid($e, $status);
    return [$stopped, pcntl_wifsignaled($status), pcntl_wtermsig($status) === SIGKILL];
}))), "\n";

function posix_kill_compat(int $pid, int $sig): void { exec("kill -$sig $pid"); }

/* no child left: -1 and ECHILD */
echo json_encode(await(spawn(fn() => [pcntl_wait($s), pcntl_get_last_error() === PCNTL_ECHILD]))), "\n";

/* the SIGCHLD handler saw the exits (it is still PHP's: the runtime installs none) */
echo $chld >= 5 ? "SIGCHLD handler ran\n" : "SIGCHLD handler ran $chld times\n";
echo pcntl_signal_get_handler(SIGCHLD) instanceof Closure ? "handler kept\n" : "handler replaced\n";
?>
--EXPECT--
[[true,true,3],[[true,true,6,true],[true,true,7]],[]]
waited
overlapped
ticker ran
[true,5]
[0,true,-1,true]
[[true,true,true],true,true]
[-1,true]
SIGCHLD handler ran
handler kept
