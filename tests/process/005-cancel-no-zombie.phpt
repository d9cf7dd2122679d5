--TEST--
Cancelling a coroutine inside shell_exec()/exec()/system()/passthru() kills its command and reaps it (no zombie, no child left); cancelling one inside proc_close()/pclose() leaves that child running, still the caller's to reap
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

/* Waits (polling, bounded) until the command has written its pid to $file. */
function pid_from(string $file): int
{
    for ($i = 0; $i < 1000 && !(is_file($file) && trim(file_get_contents($file)) !== ''); $i++) {
        delay(5);
    }
    $pid = (int) trim(file_get_contents($file));
    unlink($file);
    return $pid;
}

$dir = sys_get_temp_dir();
foreach (['shell_exec', 'exec', 'system', 'passthru'] as $i => $fn) {
    $file = "$dir/async-proc-cancel-" . getmypid() . "-$i";
    $t0 = hrtime(true);
    $co = spawn(fn() => $fn("echo \$\$ > $file; exec sleep 5"));
    $pid = pid_from($file);
    $co->cancel();
    try {
        await($co);
        echo "$fn: not cancelled\n";
    } catch (Async\AsyncCancellation $e) {
        echo "$fn: ", get_class($e), "\n";
    }
    $elapsed = ms_since($t0);
    echo $elapsed < 2500 * slow_factor() ? "  ended early\n" : "  waited for the command: $elapsed ms\n";
    echo file_exists("/proc/$pid") ? "  child $pid still exists\n" : "  child gone (reaped)\n";
    echo pcntl_waitpid(-1, $status, WNOHANG) === -1 && pcntl_get_last_error() === PCNTL_ECHILD
        ? "  no child left\n" : "  a child is left\n";
}

/* proc_close(): the wait is cancelled, the child is left alone and stays the caller's */
$pr = proc_open('sleep 0.3; exit 9', [], $pipes);
$pid = proc_get_status($pr)['pid'];
$co = spawn(fn() => proc_close($pr));
while (!$co->isStarted() || !$co->isSuspended()) { delay(1); } // it waits inside proc_close()
$co->cancel();
try { await($co); } catch (Async\AsyncCancellation $e) { echo "proc_close: ", get_class($e), "\n"; }
echo file_exists("/proc/$pid") ? "  child still running\n" : "  child gone\n";
echo "  proc_close later: ", await(spawn(fn() => proc_close($pr))), "\n";
echo pcntl_waitpid(-1, $status, WNOHANG) === -1 ? "  no child left\n" : "  a child is left\n";

/* pclose(): likewise */
$p = popen('sleep 0.3; exit 8', 'r');
$co = spawn(fn() => pclose($p));
while (!$co->isStarted() || !$co->isSuspended()) { delay(1); } // it waits inside pclose()
$co->cancel();
try { await($co); } catch (Async\AsyncCancellation $e) { echo "pclose: ", get_class($e), "\n"; }
echo "  pclose later: ", await(spawn(fn() => pclose($p))), "\n";
echo pcntl_waitpid(-1, $status, WNOHANG) === -1 ? "  no child left\n" : "  a child is left\n";
?>
--EXPECT--
shell_exec: Async\AsyncCancellation
  ended early
  child gone (reaped)
  no child left
exec: Async\AsyncCancellation
  ended early
  child gone (reaped)
  no child left
system: Async\AsyncCancellation
  ended early
  child gone (reaped)
  no child left
passthru: Async\AsyncCancellation
  ended early
  child gone (reaped)
  no child left
proc_close: Async\AsyncCancellation
  child still running
  proc_close later: 9
  no child left
pclose: Async\AsyncCancellation
  pclose later: 8
  no child left
