--TEST--
stdio: outside coroutines and in destructors on PHP 8.2/8.3 pipes are stock PHP (stream_set_timeout() false and ignored, reads block); from PHP 8.4 a destructor's pipe read suspends its coroutine and honours stream_set_timeout()
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await};

$p = proc_open([PHP_BINARY, '-n', '-r', 'usleep(300000); echo "x";'], [1 => ['pipe', 'w']], $pipes);
// Before the first spawn: stock answers false and the read waits for the child.
var_dump(stream_set_timeout($pipes[1], 0, 50000));
$t0 = hrtime(true);
var_dump(fread($pipes[1], 10), stream_get_meta_data($pipes[1])['timed_out']);
echo ms_since($t0) >= 250 ? "blocked as stock\n" : "did not wait\n";
proc_close($p);

// PHP 8.2 and 8.3 forbid switching inside destructors: there the pipe is stock (the timeout is
// refused and the read blocks the process until the child writes, the ticker stands still). From
// PHP 8.4 the destructor's coroutine suspends on the read like any other: the timeout applies and
// the ticker runs meanwhile.
class ReadsInDestructor {
    public function __destruct() {
        global $ticks;
        $p = proc_open([PHP_BINARY, '-n', '-r', 'usleep(200000); echo "d";'], [1 => ['pipe', 'w']], $pipes);
        $set = stream_set_timeout($pipes[1], 0, 50000);
        $before = $ticks;
        $r = fread($pipes[1], 10);
        if (PHP_VERSION_ID < 80400) {
            echo '8.2-8.3: stream_set_timeout: ', var_export($set, true), ', destructor read: ', var_export($r, true),
                ', the ticker stood still: ', var_export($ticks === $before, true), "\n";
        } else {
            $timedOut = stream_get_meta_data($pipes[1])['timed_out'];
            stream_set_timeout($pipes[1], 5);
            $r2 = fread($pipes[1], 10);
            echo '8.4+: stream_set_timeout: ', var_export($set, true), ', destructor read: ', var_export($r, true),
                ' (timed out: ', var_export($timedOut, true), '), then ', var_export($r2, true),
                ', the ticker moved: ', var_export($ticks > $before, true), "\n";
        }
        proc_close($p);
    }
}
$ticks = 0;
$ticker = spawn(function () use (&$ticks) {
    for (;;) {
        Async\delay(5);
        $ticks++;
    }
});
await(spawn(function () {
    $o = new ReadsInDestructor();
    unset($o);
    echo "after destructor\n";
}));
$ticker->cancel();
?>
--EXPECTF--
bool(false)
string(1) "x"
bool(false)
blocked as stock
%r(8\.2-8\.3: stream_set_timeout: false, destructor read: 'd', the ticker stood still: true|8\.4\+: stream_set_timeout: true, destructor read: false \(timed out: true\), then 'd', the ticker moved: true)%r
after destructor
