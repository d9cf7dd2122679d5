--TEST--
examples/http_server.php (memory_limit 4M) takes a whole backlog at once (1,500 connections queued while it was stopped): it refuses what its memory cannot hold instead of dying, again on the next floods, and serves normally afterwards
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit needs ZendMM');
if (!is_readable('/proc/net/tcp')) die('skip needs Linux /proc/net/tcp');
require __DIR__ . '/flood.inc';
if (flood_hard_limit() < 4096) die('skip needs a descriptor hard limit of 4096');
?>
--FILE--
<?php
require __DIR__ . '/flood.inc';

[$server, $spipes, $addr] = flood_server(4096, ['--backlog=2048'], ['memory_limit' => '4M']);
$client = flood_client(4096, $addr);
$port = (int) substr($addr, strrpos($addr, ':') + 1);
$sigstop = defined('SIGSTOP') ? SIGSTOP : 19; // Linux's numbers without pcntl
$sigcont = defined('SIGCONT') ? SIGCONT : 18;
$outcome = function (string $answer): string {
    $c = flood_fields($answer);
    return sprintf('all answered or closed: %s, some served: %s, none failed: %s',
        var_export($c['ok'] + $c['refused'] + $c['closed'] === 1500, true), var_export($c['ok'] > 100, true),
        var_export($c['failed'] === 0, true));
};

// The server stopped while 1,500 clients connect and send: when it goes on, accept() finds them
// all waiting, and none of them has allocated anything yet.
proc_terminate($server, $sigstop);
fwrite($client[1][0], "open 1500\n");
$t0 = hrtime(true);
while (flood_queued($port) < 1500 && ms_since($t0) < 3000 * slow_factor()) {
    usleep(5000);
}
echo 'queued while stopped: ', flood_queued($port), "\n";
proc_terminate($server, $sigcont);
echo 'burst: ', $outcome(flood_line($client[1][1], 30) ?? 'no answer'), "\n";
echo flood_ask($client, 'close'), "\n";
for ($i = 1; $i <= 2; $i++) {
    echo "flood $i: ", $outcome(flood_ask($client, 'open 1500', 30)), "\n";
    echo flood_ask($client, 'close'), "\n";
}
flood_stats($spipes, fn($f) => $f['connections'] === 0);
echo 'afterwards: ', flood_ask($client, 'open 50'), "\n";
$running = proc_get_status($server)['running'];
echo 'server running: ', var_export($running, true), "\n";
if (!$running) {
    echo 'server said: ', flood_server_said($spipes), "\n"; // why it ended, for the diff
}
flood_stop(...$client);
echo 'server exit: ', flood_stop($server, $spipes) !== 255 ? 'terminated' : 'fatal error', "\n";
?>
--EXPECT--
queued while stopped: 1500
burst: all answered or closed: true, some served: true, none failed: true
closed
flood 1: all answered or closed: true, some served: true, none failed: true
closed
flood 2: all answered or closed: true, some served: true, none failed: true
closed
afterwards: opened ok=50 refused=0 closed=0 failed=0
server running: true
server exit: terminated
