--TEST--
Net: a pfsockopen() stream lives across the requests of one process (php -S): each request's coroutines use it without blocking, the second request finds it again (same connection), writers and readers still take turns
--SKIPIF--
<?php require __DIR__ . '/../badinput/child.inc'; badinput_skip(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';

// An echo server of our own, in a child process: answers each line after 100 ms.
$echo = sys_get_temp_dir() . '/persistent-echo-' . getmypid() . '.php';
file_put_contents($echo, <<<'PHP'
<?php
use function Async\{spawn, delay};
$server = stream_socket_server('tcp://127.0.0.1:0');
echo stream_socket_get_name($server, false), "\n";
fflush(STDOUT);
while ($c = stream_socket_accept($server, -1)) {
    spawn(function () use ($c) {
        while (($line = fgets($c)) !== false) { delay(100); fwrite($c, "echo $line"); }
    });
}
PHP);
$echoer = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), $echo],
    [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $echo_pipes);
$echo_addr = trim(fgets($echo_pipes[1]));

$router = sys_get_temp_dir() . '/persistent-router-' . getmypid() . '.php';
file_put_contents($router, <<<'PHP'
<?php
use function Async\{spawn, await, delay};
[$host, $port] = explode(':', getenv('ECHO_ADDR'));
$s = pfsockopen($host, (int) $port, $errno, $errstr, 5);
stream_set_timeout($s, 5);
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) { while (!$done) { $ticks++; delay(10); } });
$cs = [];
foreach (['a', 'b', 'c'] as $word) {
    $cs[] = spawn(function () use ($s, $word) { fwrite($s, "$word\n"); return trim(fgets($s)); });
}
$answers = array_map(fn($c) => await($c), $cs);
$done = true;
await($ticker);
echo (int) $s, ' ', implode(',', $answers), ' ticked: ', var_export($ticks >= 10, true), "\n";
PHP);

$probe = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
fclose($probe);
$server = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-S', "127.0.0.1:$port", $router],
    [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes,
    null, ['ECHO_ADDR' => $echo_addr]);
$deadline = microtime(true) + 10 * slow_factor();
while (!($c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2)) && microtime(true) < $deadline) {
    usleep(20000);
}
if ($c) { fclose($c); }

$ctx = stream_context_create(['http' => ['timeout' => 10 * slow_factor(), 'ignore_errors' => true]]);
$ids = [];
for ($i = 1; $i <= 3; $i++) {
    $body = trim((string) @file_get_contents("http://127.0.0.1:$port/", false, $ctx));
    [$id, $rest] = explode(' ', $body, 2) + [1 => $body];
    $ids[$id] = true;
    echo "request $i: $rest\n";
}
echo 'the same persistent connection each time: ', var_export(count($ids) === 1, true), "\n";
proc_terminate($server);
proc_close($server);
proc_terminate($echoer);
proc_close($echoer);
unlink($router);
unlink($echo);
?>
--EXPECT--
request 1: echo a,echo b,echo c ticked: true
request 2: echo a,echo b,echo c ticked: true
request 3: echo a,echo b,echo c ticked: true
the same persistent connection each time: true
