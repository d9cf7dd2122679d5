--TEST--
TLS: fwrite() in a coroutine on a connection the peer reset while it was idle fails once, as stock PHP's does (found by the scenario matrix: tls.idle.reset, tls.idle.restart)
--DESCRIPTION--
Stock PHP: one "SSL: Connection reset by peer" (or "Broken pipe") warning, fwrite() returns 0,
the next fread() gives ''. ext-async before the fix waited for a writable socket again and again
(libssl's SSL_want() still said "writing" after the write failed for good), printing "SSL: Broken
pipe" in a loop on a whole core; the client runs in a child php here, killed after 5 s.
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';

$dir = sys_get_temp_dir() . '/chaos-tls-reset-' . getmypid();
@mkdir($dir);
exec('openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost'
    . " -keyout $dir/key.pem -out $dir/cert.pem 2>/dev/null");
$up = proc_open([PHP_BINARY, '-n', chaos_root() . '/tests/chaos/matrix_upstream.php', 'line', "$dir/cert.pem", "$dir/key.pem"],
    [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $upPipes);
preg_match('/^listening (\S+)/', fgets($upPipes[1]), $m);
$proxy = ChaosProxy::start($m[1]);

// The client: one request answered, then (told on stdin) one more after the reset.
$client = <<<'PHP'
    [$addr, $cafile, $async] = [$argv[1], $argv[2], $argv[3] === 'async'];
    $run = function () use ($addr, $cafile) {
        $ctx = stream_context_create(['ssl' => ['cafile' => $cafile, 'peer_name' => 'localhost']]);
        $s = stream_socket_client("tls://$addr", $errno, $errstr, 2, STREAM_CLIENT_CONNECT, $ctx);
        stream_set_timeout($s, 1);
        fwrite($s, "5\n");
        echo 'first answer: ', fread($s, 5), "\n";
        fgets(STDIN); // the proxy has reset the connection
        $w = fwrite($s, "5\n");
        echo 'fwrite: ', var_export($w, true), "\n";
        $r = fread($s, 5);
        echo 'fread: ', var_export($r, true), "\n";
    };
    $async ? Async\await(Async\spawn($run)) : $run();
    PHP;
foreach (['stock', 'async'] as $mode) {
    $p = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-d', 'display_errors=1',
        '-r', $client, $proxy->addr, "$dir/cert.pem", $mode], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $id = $mode === 'stock' ? 1 : 2;
    echo "$mode: ", trim(fgets($pipes[1])), "\n";
    $proxy->fault('refuse', $id);
    $proxy->waitEvent("/^conn $id reset /");
    fwrite($pipes[0], "go\n");
    stream_set_blocking($pipes[1], false);
    $out = '';
    $deadline = microtime(true) + 5;
    while (!feof($pipes[1]) && microtime(true) < $deadline && strlen($out) < 100000) {
        $r = [$pipes[1]];
        $w = $e = null;
        if (stream_select($r, $w, $e, 0, 100000)) {
            $out .= fread($pipes[1], 65536);
        }
    }
    $warnings = substr_count($out, 'Warning: fwrite()');
    echo "  fwrite warnings: ", $warnings > 1 ? 'more than one (a loop)' : $warnings, "\n";
    foreach (explode("\n", $out) as $line) {
        if (str_starts_with($line, 'fwrite: ') || str_starts_with($line, 'fread: ')) {
            echo "  $line\n";
        }
    }
    proc_terminate($p, 9);
    foreach ($pipes as $pipe) {
        fclose($pipe);
    }
    proc_close($p);
}
$proxy->stop();
fclose($upPipes[0]);
proc_close($up);
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
stock: first answer: 01234
  fwrite warnings: 1
  fwrite: 0
  fread: ''
async: first answer: 01234
  fwrite warnings: 1
  fwrite: 0
  fread: ''
