--TEST--
examples/http_server.php under a flood beyond its memory_limit (4M): above 80% of it new connections are refused with 503 instead of the process dying, and it serves normally afterwards
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit needs ZendMM');
require __DIR__ . '/flood.inc';
if (flood_hard_limit() < 4096) die('skip needs a descriptor hard limit of 4096');
?>
--FILE--
<?php
require __DIR__ . '/flood.inc';

[$server, $spipes, $addr] = flood_server(4096, ['--backlog=2048'], ['memory_limit' => '4M']);
$client = flood_client(4096, $addr);

// ~5 KiB each: 4 MiB cannot hold 1,500 connections.
$flood = flood_fields(flood_ask($client, 'open 1500'));
echo 'flood of 1500: every one answered 200 or 503, or closed: ',
    var_export($flood['ok'] + $flood['refused'] + $flood['closed'] === 1500 && $flood['failed'] === 0, true), "\n";
echo 'some served: ', var_export($flood['ok'] > 100, true), ', some refused: ', var_export($flood['refused'] > 0, true), "\n";
$stats = flood_stats($spipes, fn($f) => $f['connections'] === $flood['ok'] && $f['refused'] >= $flood['refused'] + $flood['closed']);
echo 'server: memory below its limit: ', var_export($stats['memory'] < 4096, true), ', refused all the others: ',
    var_export($stats['refused'] === $flood['refused'] + $flood['closed'], true), "\n";
echo flood_ask($client, 'close'), "\n";
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
flood of 1500: every one answered 200 or 503, or closed: true
some served: true, some refused: true
server: memory below its limit: true, refused all the others: true
closed
afterwards: opened ok=50 refused=0 closed=0 failed=0
server running: true
server exit: terminated
