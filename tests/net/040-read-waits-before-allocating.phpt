--TEST--
Net: fread(), fgets()/fgetcsv() with a length, stream_get_contents() with a length, stream_socket_recvfrom() (and fgets() without a length, stream_get_line()) wait for data before PHP allocates the length: 200 idle readers of 64 KiB each grow memory by far less than 200 x 64 KiB; data, timeouts, cancellation, a close under the reader, and outside coroutines as PHP
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_get_usage() needs ZendMM');
?>
--INI--
default_socket_timeout=30
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, await_all, suspend};

const N = 200;
const LEN = 65536;
/* What one idle reader may add: its coroutine, its poll and its timer, never its 64 KiB. */
const BOUND = 16384;

$reads = [
    'fread' => fn($s) => fread($s, LEN),
    'fgets' => fn($s) => fgets($s, LEN),
    'fgetcsv' => fn($s) => fgetcsv($s, LEN, ',', '"', '\\'),
    'stream_get_contents' => fn($s) => stream_get_contents($s, LEN),
    'stream_socket_recvfrom' => fn($s) => stream_socket_recvfrom($s, LEN),
    'fgets without a length' => fn($s) => fgets($s),
    'stream_get_line' => fn($s) => stream_get_line($s, LEN, "\n"),
];

function pair(): array
{
    return stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
}

/* A read that times out after 200 ms: its result, timed_out, and whether it took the timeout. */
function timed_out(callable $read): string
{
    [$a, $b] = pair();
    stream_set_timeout($a, 0, 200000);
    $t = hrtime(true);
    $r = $read($a);
    $ms = ms_since($t);
    return var_export($r, true) . ' timed_out=' . var_export(stream_get_meta_data($a)['timed_out'], true)
        . ($ms >= 199 && $ms < 2000 * slow_factor() ? ' after the timeout' : " after $ms ms");
}

// Outside a coroutine: PHP's own functions (the baseline for the timeouts below). PHP's own
// stream_socket_recvfrom() ignores the timeout and blocks; in a coroutine it honours it (README).
$stock = ['stream_socket_recvfrom' => 'false timed_out=true after the timeout'];
foreach ($reads as $name => $read) {
    if (!isset($stock[$name])) {
        $stock[$name] = timed_out($read);
        echo "stock $name: {$stock[$name]}\n";
    }
}

await(spawn(function () use ($reads, $stock) {
    foreach ($reads as $name => $read) {
        // N readers wait on idle sockets.
        $pairs = [];
        for ($i = 0; $i < N; $i++) {
            $pairs[$i] = pair();
        }
        gc_collect_cycles();
        $before = memory_get_usage();
        $waiting = 0;
        $readers = [];
        for ($i = 0; $i < N; $i++) {
            $readers[$i] = spawn(function () use ($read, $pairs, $i, &$waiting) {
                $waiting++;
                return $read($pairs[$i][0]);
            });
        }
        do {
            suspend();
        } while ($waiting < N);
        suspend();
        $per = (memory_get_usage() - $before) / N;
        echo "$name: ", $per < BOUND ? 'each idle reader < 16 KiB' : "each idle reader $per bytes", "\n";

        // The data arrives: every reader gets it.
        foreach ($pairs as $i => [$a, $b]) {
            fwrite($b, "row,$i\n");
            if ($name === 'stream_get_contents') {
                fclose($b); // it reads to the end
            }
        }
        $ok = 0;
        foreach (await_all($readers)[0] as $i => $r) {
            $ok += ($r === "row,$i\n" || $r === ['row', (string) $i] || $r === "row,$i") ? 1 : 0;
        }
        echo "$name: $ok of ", N, " got their data\n";
        unset($readers, $pairs);

        // A timeout ends the wait as PHP's own read does.
        $async = timed_out($read);
        echo "$name: timeout ", $async === $stock[$name] ? 'as stock' : "differs: $async", "\n";

        // Cancellation ends the wait; the stream stays usable.
        [$a, $b] = pair();
        $reader = spawn(fn() => $read($a));
        suspend();
        $reader->cancel();
        try {
            await($reader);
            echo "$name: not cancelled\n";
        } catch (Async\AsyncCancellation $e) {
            echo "$name: cancelled; ";
        }
        fwrite($b, "after,1\n");
        if ($name === 'stream_get_contents') {
            fclose($b);
        }
        echo "then ", json_encode($read($a)), "\n";

        // Another coroutine closes the stream under the reader: end of stream.
        [$a, $b] = pair();
        $reader = spawn(fn() => $read($a));
        suspend();
        fclose($a);
        echo "$name: closed under it: ", var_export(await($reader), true), "\n";
    }

    // stream_get_contents() with a length reads to the end across many waits, its buffer growing.
    [$a, $b] = pair();
    $reader = spawn(fn() => stream_get_contents($a, 1 << 20));
    $writer = spawn(function () use ($b) {
        for ($i = 0; $i < 100; $i++) {
            fwrite($b, str_repeat(chr(65 + $i % 26), 1000));
            suspend();
        }
        fclose($b);
    });
    [$got] = await_all([$reader, $writer])[0];
    echo 'stream_get_contents across waits: ', strlen($got), ' bytes, ', md5($got) === md5(implode('', array_map(
        fn($i) => str_repeat(chr(65 + $i % 26), 1000), range(0, 99)))) ? 'in order' : 'garbled', "\n";

    // A non-blocking stream never waits, as PHP's.
    [$a, $b] = pair();
    stream_set_blocking($a, false);
    echo 'non-blocking fread: ', var_export(fread($a, LEN), true), "\n";
}));
?>
--EXPECT--
stock fread: false timed_out=true after the timeout
stock fgets: false timed_out=true after the timeout
stock fgetcsv: false timed_out=true after the timeout
stock stream_get_contents: '' timed_out=true after the timeout
stock fgets without a length: false timed_out=true after the timeout
stock stream_get_line: false timed_out=true after the timeout
fread: each idle reader < 16 KiB
fread: 200 of 200 got their data
fread: timeout as stock
fread: cancelled; then "after,1\n"
fread: closed under it: ''
fgets: each idle reader < 16 KiB
fgets: 200 of 200 got their data
fgets: timeout as stock
fgets: cancelled; then "after,1\n"
fgets: closed under it: false
fgetcsv: each idle reader < 16 KiB
fgetcsv: 200 of 200 got their data
fgetcsv: timeout as stock
fgetcsv: cancelled; then ["after","1"]
fgetcsv: closed under it: false
stream_get_contents: each idle reader < 16 KiB
stream_get_contents: 200 of 200 got their data
stream_get_contents: timeout as stock
stream_get_contents: cancelled; then "after,1\n"
stream_get_contents: closed under it: ''
stream_socket_recvfrom: each idle reader < 16 KiB
stream_socket_recvfrom: 200 of 200 got their data
stream_socket_recvfrom: timeout as stock
stream_socket_recvfrom: cancelled; then "after,1\n"
stream_socket_recvfrom: closed under it: false
fgets without a length: each idle reader < 16 KiB
fgets without a length: 200 of 200 got their data
fgets without a length: timeout as stock
fgets without a length: cancelled; then "after,1\n"
fgets without a length: closed under it: false
stream_get_line: each idle reader < 16 KiB
stream_get_line: 200 of 200 got their data
stream_get_line: timeout as stock
stream_get_line: cancelled; then "after,1"
stream_get_line: closed under it: false
stream_get_contents across waits: 100000 bytes, in order
non-blocking fread: ''
