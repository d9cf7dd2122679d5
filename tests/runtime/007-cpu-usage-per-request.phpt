--TEST--
cpu_usage(): the stored snapshot belongs to the request: the next request's first call reports zeros again (checked through php -S, several requests in one process)
--SKIPIF--
<?php
require __DIR__ . '/../inc/bounds.inc';
if (!function_exists('proc_open')) die('skip proc_open needed');
if (async_module_path() === null) die('skip async module path unknown');
?>
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';

$router = sys_get_temp_dir() . '/cpu-usage-router-' . getmypid() . '.php';
file_put_contents($router, <<<'PHP'
<?php
$first = Async\cpu_usage();
$t0 = hrtime(true);
while (hrtime(true) - $t0 < 20e6) {}
$second = Async\cpu_usage();
echo json_encode([getmypid(), $first['interval_sec'], $first['process_cores'], $second['interval_sec'] > 0.019,
    $second['process_cores'] > 0]);
PHP);

// A free port on the loopback, then the built-in server on it.
$probe = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
fclose($probe);
$server = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-S', "127.0.0.1:$port", $router],
    [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
$deadline = microtime(true) + 10 * slow_factor();
while (!($c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2)) && microtime(true) < $deadline) {
    usleep(20000);
}
if ($c) {
    fclose($c);
}

$ctx = stream_context_create(['http' => ['timeout' => 10 * slow_factor()]]);
$pids = [];
for ($i = 1; $i <= 3; $i++) {
    $body = @file_get_contents("http://127.0.0.1:$port/", false, $ctx);
    [$pid, $interval, $cores, $measured, $busy] = json_decode((string) $body, true) ?? [0, -1, -1, false, false];
    $pids[$pid] = true;
    echo "request $i: first call interval=$interval cores=$cores, second call measured: ",
        var_export($measured && $busy, true), "\n";
}
echo "one server process: ", var_export(count($pids) === 1, true), "\n";
proc_terminate($server);
proc_close($server);
unlink($router);
?>
--EXPECT--
request 1: first call interval=0 cores=0, second call measured: true
request 2: first call interval=0 cores=0, second call measured: true
request 3: first call interval=0 cores=0, second call measured: true
one server process: true
