--TEST--
signal(): a wait left pending by a request that died (fatal error) is cleaned up at request end; the next request in the same process waits again (php -S)
--SKIPIF--
<?php
require __DIR__ . '/../inc/bounds.inc';
if (!function_exists('proc_open')) die('skip proc_open needed');
if (async_module_path() === null) die('skip async module path unknown');
?>
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';

$router = sys_get_temp_dir() . '/signal-router-' . getmypid() . '.php';
file_put_contents($router, <<<'PHP'
<?php
use Async\Signal;
use function Async\{signal, await, spawn};
if ($_SERVER['REQUEST_URI'] === '/fatal') {
    $f = signal(Signal::SIGUSR1);
    $g = signal(Signal::SIGUSR2, spawn(fn() => Async\delay(100000)));
    echo "armed\n";
    undefined_function();
}
$f = signal(Signal::SIGUSR1);
$g = signal(Signal::SIGUSR1);
posix_kill(getmypid(), SIGUSR1);
echo getmypid(), " ", await($f)->name, " ", await($g)->name, "\n";
PHP);

$probe = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
fclose($probe);
$server = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-d', 'extension=posix',
    '-d', 'display_errors=1', '-d', 'html_errors=0', '-S', "127.0.0.1:$port", $router],
    [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
$deadline = microtime(true) + 10 * slow_factor();
while (!($c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2)) && microtime(true) < $deadline) {
    usleep(20000);
}
if ($c) {
    fclose($c);
}

$ctx = stream_context_create(['http' => ['timeout' => 10 * slow_factor(), 'ignore_errors' => true]]);
$pids = [];
foreach (['/wait', '/fatal', '/wait', '/fatal', '/wait'] as $uri) {
    $body = (string) @file_get_contents("http://127.0.0.1:$port$uri", false, $ctx);
    if ($uri === '/fatal') {
        echo "$uri: ", str_contains($body, "armed") && str_contains($body, "undefined_function") ? "died as expected" : $body, "\n";
        continue;
    }
    [$pid, $rest] = explode(' ', trim($body), 2) + [1 => $body];
    $pids[$pid] = true;
    echo "$uri: $rest\n";
}
echo "one server process: ", var_export(count($pids) === 1, true), "\n";
proc_terminate($server);
proc_close($server);
unlink($router);
?>
--EXPECT--
/wait: SIGUSR1 SIGUSR1
/fatal: died as expected
/wait: SIGUSR1 SIGUSR1
/fatal: died as expected
/wait: SIGUSR1 SIGUSR1
one server process: true
