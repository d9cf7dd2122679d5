--TEST--
stdio: outside coroutines and in destructors pipes are stock PHP (stream_set_timeout() false and ignored, reads block)
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

class ReadsInDestructor {
    public function __destruct() {
        $p = proc_open([PHP_BINARY, '-n', '-r', 'usleep(200000); echo "d";'], [1 => ['pipe', 'w']], $pipes);
        stream_set_timeout($pipes[1], 0, 50000);
        echo 'destructor read: ', fread($pipes[1], 10), "\n";
        proc_close($p);
    }
}
await(spawn(function () {
    $o = new ReadsInDestructor();
    unset($o);
    echo "after destructor\n";
}));
?>
--EXPECT--
bool(false)
string(1) "x"
bool(false)
blocked as stock
destructor read: d
after destructor
