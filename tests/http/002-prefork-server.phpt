--TEST--
examples/prefork_server.php: one listening socket, two forked workers each with its own loop; requests are served; SIGHUP replaces the workers one by one while the port keeps answering; SIGTERM ends a kept-alive connection and stops everything
--SKIPIF--
<?php
require __DIR__ . '/../badinput/child.inc';
badinput_skip();
if (!function_exists('pcntl_fork') || !function_exists('exec')) die('skip pcntl and exec needed');
?>
--FILE--
<?php
require_once __DIR__ . '/../inc/bounds.inc';

/* The example ships beside the module that is being tested (run-phpt.sh copies tests/ elsewhere). */
$script = dirname(async_module_path(), 2) . '/examples/prefork_server.php';
if (!is_file($script)) {
    $script = __DIR__ . '/../../examples/prefork_server.php';
}
$proc = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . async_module_path(), $script, '127.0.0.1:0', '2'],
    [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
$master = proc_get_status($proc)['pid'];
stream_set_blocking($pipes[1], false);
$pending = '';

/* The master's next line (bounded wait; no sleeps). */
function next_line($out, string &$pending): string
{
    $deadline = microtime(true) + 20 * slow_factor();
    while (($eol = strpos($pending, "\n")) === false) {
        if (microtime(true) > $deadline) { return 'TIMEOUT'; }
        $r = [$out]; $w = $e = null;
        if (stream_select($r, $w, $e, 0, 100000)) {
            $chunk = fread($out, 8192);
            if ($chunk === '' || $chunk === false) { return 'EOF'; }
            $pending .= $chunk;
        }
    }
    $line = substr($pending, 0, $eol);
    $pending = substr($pending, $eol + 1);
    return $line;
}
function is_number(string $w): bool { return $w !== '' && strspn($w, '0123456789') === strlen($w); }
function words(string $line): string { return implode(' ', array_map(fn($w) => is_number($w) ? 'PID' : $w, explode(' ', $line))); }
function get(string $addr): string { return (string) @file_get_contents("http://$addr/"); }

$first = next_line($pipes[1], $pending);
$addr = substr($first, strlen('listening on '));
echo words(next_line($pipes[1], $pending)), "\n", words(next_line($pipes[1], $pending)), "\n";
$answers = [];
for ($i = 0; $i < 6; $i++) { $answers[] = get($addr); }
echo implode(',', array_unique($answers)), "\n";

exec("kill -HUP $master");
for ($i = 0; $i < 5; $i++) { echo words(next_line($pipes[1], $pending)), "\n"; }
echo 'after restart: ', get($addr), "\n";

// A kept-alive connection: answered, then ended by SIGTERM.
$c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
fwrite($c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
stream_set_timeout($c, (int) (20 * slow_factor()));
$response = '';
while (!str_ends_with($response, 'Hello')) { $response .= fread($c, 8192); }
echo 'kept-alive: ', substr($response, 0, 15), "\n";
exec("kill -TERM $master");
for ($i = 0; $i < 3; $i++) { echo words(next_line($pipes[1], $pending)), "\n"; }
echo 'connection ended: ', var_export(fread($c, 8192) === '' && feof($c), true), "\n";
$status = proc_close($proc);
echo "master exit: $status\n";
echo 'port closed: ', var_export(@stream_socket_client("tcp://$addr", $errno, $errstr, 1) === false, true), "\n";
?>
--EXPECT--
worker PID started
worker PID started
Hello
worker PID started
worker PID stopped
worker PID started
worker PID stopped
restarted
after restart: Hello
kept-alive: HTTP/1.1 200 OK
worker PID stopped
worker PID stopped
stopped
connection ended: true
master exit: 0
port closed: true
