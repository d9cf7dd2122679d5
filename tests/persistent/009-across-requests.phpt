--TEST--
Persistent: at the request's end held connections go back under their key (or are kept aside under a spare key), so the next request of the process (php -S) finds them: two coroutines get the same two connections again, and code outside coroutines finds one of them as stock PHP would
--SKIPIF--
<?php require __DIR__ . '/../badinput/child.inc'; badinput_skip(); ?>
--FILE--
<?php
require __DIR__ . '/persist.inc';

[$echo, $echo_port] = persist_server_process();

$router = sys_get_temp_dir() . '/persist-router-' . getmypid() . '.php';
file_put_contents($router, '<?php require ' . var_export(__DIR__ . '/persist.inc', true) . ';' . <<<'PHP'
use function Async\{spawn, await_all};
$port = (int) getenv('ECHO_PORT');
if (($_GET['outside'] ?? '') === '1') {
    $s = pfsockopen('127.0.0.1', $port, $errno, $errstr, 5); // no coroutine runs in this request
    echo persist_conn(persist_ask($s, 'outside'));
    return;
}
$opened = new Async\Channel(2);
$gate = new Async\FutureState();
$go = new Async\Future($gate);
$cs = [];
foreach ([1, 2] as $i) {
    $cs[] = spawn(function () use ($port, $opened, $go) {
        $s = pfsockopen('127.0.0.1', $port, $errno, $errstr, 5);
        $id = persist_conn(persist_ask($s, 'hello'));
        $opened->send($id);
        $go->await();
        return $id;
    });
}
$opened->recv();
$opened->recv();
$gate->complete(true);
[$ids] = await_all($cs);
sort($ids);
echo implode(',', $ids);
PHP);

$probe = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
fclose($probe);
$server = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), '-S', "127.0.0.1:$port", $router],
    [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes,
    null, ['ECHO_PORT' => (string) $echo_port]);
$deadline = microtime(true) + 10 * slow_factor();
while (!($c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2)) && microtime(true) < $deadline) {
    usleep(20000);
}
if ($c) {
    fclose($c);
}
$ctx = stream_context_create(['http' => ['timeout' => 10 * slow_factor(), 'ignore_errors' => true]]);
$get = fn(string $q = '') => trim((string) @file_get_contents("http://127.0.0.1:$port/$q", false, $ctx));

$first = $get();
$second = $get();
$outside = $get('?outside=1');
echo 'first request: two connections: ', var_export(count(array_unique(explode(',', $first))) === 2, true), "\n";
echo 'second request: the same two: ', var_export($second === $first, true), "\n";
echo 'outside coroutines: one of them: ', var_export(in_array($outside, explode(',', $first), true), true), "\n";
proc_terminate($server);
proc_close($server);
unlink($router);
?>
--EXPECT--
first request: two connections: true
second request: the same two: true
outside coroutines: one of them: true
