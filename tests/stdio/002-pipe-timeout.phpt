--TEST--
stdio: stream_set_timeout() on a pipe bounds a read in a coroutine (false, timed_out), and a later read still gets the data
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, delay};

$r = spawn(function () {
    $p = proc_open([PHP_BINARY, '-n', '-r', 'fgets(STDIN); echo "late\n";'],
        [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    var_dump(stream_set_timeout($pipes[1], 0, 200000));
    $t0 = hrtime(true);
    var_dump(fread($pipes[1], 100));
    $ms = ms_since($t0);
    echo $ms >= 199 ? "waited the timeout\n" : "too short: $ms\n";
    echo $ms < 2000 * slow_factor() ? "bounded\n" : "too long: $ms\n";
    $meta = stream_get_meta_data($pipes[1]);
    var_dump($meta['timed_out'], $meta['eof'], feof($pipes[1]));
    var_dump(fgets($pipes[1]), stream_get_meta_data($pipes[1])['timed_out']);
    fwrite($pipes[0], "go\n");
    stream_set_timeout($pipes[1], 5);
    var_dump(fgets($pipes[1]), stream_get_meta_data($pipes[1])['timed_out']);
    fclose($pipes[0]);
    fclose($pipes[1]);
    var_dump(proc_close($p));
});
await($r);
?>
--EXPECT--
bool(true)
bool(false)
waited the timeout
bounded
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
string(5) "late
"
bool(false)
int(0)
