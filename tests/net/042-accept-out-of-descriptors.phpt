--TEST--
Net: stream_socket_accept() out of descriptors (EMFILE) backs off on a timer before it reports the failure, so a loop that retries at once does not spin: other coroutines run, and the accept succeeds once descriptors are free
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
?>
--FILE--
<?php
require __DIR__ . '/net.inc';

/* The child runs under `ulimit -n 64` (the test's own set-up) and fills its descriptors. */
$child = <<<'PHP'
<?php
use function Async\{spawn, await, delay};
await(spawn(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
        stream_context_create(['socket' => ['backlog' => 64]]));
    $addr = stream_socket_get_name($srv, false);
    delay(1); // the loop runs, its own descriptors open
    $hold = [];
    while (($f = @fopen('/dev/null', 'r')) !== false) {
        $hold[] = $f;
    }
    // Three descriptors for three clients: then none is left for the server's accept().
    for ($i = 0; $i < 3; $i++) {
        fclose(array_pop($hold));
    }
    $clients = [];
    for ($i = 0; $i < 3; $i++) {
        $clients[] = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    }
    echo 'descriptors left: ', @fopen('/dev/null', 'r') === false ? 'none' : 'some', "\n";

    $ticks = 0;
    $ticker = spawn(function () use (&$ticks) {
        for ($i = 0; $i < 100; $i++) {
            delay(5);
            $ticks++;
        }
    });
    $fails = 0;
    $message = '';
    $acceptor = spawn(function () use ($srv, &$fails, &$message) {
        $got = 0;
        // A loop that retries at once (bounded, so a spinning accept ends the test instead of hanging it).
        for ($i = 0; $i < 100000 && $got < 3; $i++) {
            $c = @stream_socket_accept($srv, -1);
            if ($c === false) {
                $fails++;
                $message = error_get_last()['message'] ?? '';
                continue;
            }
            $got++;
            fclose($c);
        }
        return $got;
    });
    $t = hrtime(true);
    delay(300);
    $ms = (hrtime(true) - $t) / 1e6;
    echo "failed accepts in 300 ms: ", $fails >= 1 && $fails <= 20 ? 'a few' : $fails, "\n";
    echo "the failure: $message\n";
    echo 'other coroutines ran meanwhile: ', $ticks >= 20 && $ms < 2000 ? 'yes' : "no ($ticks ticks in $ms ms)", "\n";
    // Descriptors come back: the next accepts succeed.
    for ($i = 0; $i < 10; $i++) {
        fclose(array_pop($hold));
    }
    echo 'accepted once descriptors were free: ', await($acceptor), "\n";
    await($ticker);
}));
PHP;
$file = tempnam(sys_get_temp_dir(), 'emfile');
file_put_contents($file, $child);
$cmd = 'ulimit -n 64 && exec ' . escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg(async_module_path())
    . ' ' . escapeshellarg($file) . ' 2>&1';
echo shell_exec('sh -c ' . escapeshellarg($cmd));
unlink($file);
?>
--EXPECT--
descriptors left: none
failed accepts in 300 ms: a few
the failure: stream_socket_accept(): Accept failed: Too many open files
other coroutines ran meanwhile: yes
accepted once descriptors were free: 3
