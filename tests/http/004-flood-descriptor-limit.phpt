--TEST--
examples/http_server.php under a flood beyond its descriptor limit (ulimit -n 256): it stays alive, sheds idle keep-alive connections, refuses the excess with 503, does not spin, and serves normally afterwards
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
require __DIR__ . '/flood.inc';
if (flood_hard_limit() < 2048) die('skip needs a descriptor hard limit of 2048');
?>
--FILE--
<?php
require __DIR__ . '/flood.inc';

[$server, $spipes, $addr] = flood_server(256);
$client = flood_client(2048, $addr);

// 1. 150 keep-alive connections, each answered once and then idle.
echo '150 connections: ', flood_ask($client, 'open 150'), "\n";
$stats = flood_stats($spipes, fn($f) => $f['idle'] === 150);
echo 'server: ', $stats['connections'], " open, all idle\n";
// Idle for more than a second: under a flood they may be closed to make room.
usleep(1100000);

// 2. 300 more at once: far beyond the 256 descriptors the server has.
$flood = flood_fields(flood_ask($client, 'open 300'));
echo 'flood of 300: every one answered 200 or 503, or closed: ',
    var_export($flood['ok'] + $flood['refused'] + $flood['closed'] === 300 && $flood['failed'] === 0, true), "\n";
echo 'flood of 300: some served: ', var_export($flood['ok'] > 0, true), ', some refused with 503: ',
    var_export($flood['refused'] > 0, true), "\n";
$stats = flood_stats($spipes, fn($f) => $f['exhausted'] > 0 && $f['refused'] > 0 && $f['shed'] > 0);
echo 'server: accepts failed for want of descriptors: ', var_export($stats['exhausted'] > 0, true),
    ', refused: ', var_export($stats['refused'] > 0, true), ', idle connections shed: ', var_export($stats['shed'] > 0, true), "\n";
$idle = flood_fields(flood_ask($client, 'count'));
echo 'idle connections of step 1 closed by the server: ', var_export($idle['gone'] > 0, true), "\n";

// 3. The clients go away; the server is alive, and serves as before.
echo flood_ask($client, 'close'), "\n";
$stats = flood_stats($spipes, fn($f) => $f['connections'] === 0);
echo 'server: ', $stats['connections'], " open\n";
echo 'afterwards: ', flood_ask($client, 'open 100'), "\n";
echo 'server running: ', var_export(proc_get_status($server)['running'], true), "\n";
// It did not spin at 100% CPU while it was out of descriptors: its CPU time is far below the
// wall time of the whole test (a spinning accept loop would burn all of it).
$ps = (string) shell_exec('ps -o times= -p ' . proc_get_status($server)['pid']);
echo 'server CPU time under 3 s: ', var_export((int) trim($ps) < 3, true), "\n";
echo flood_ask($client, 'close'), "\n";
flood_stop(...$client);
echo 'server exit: ', flood_stop($server, $spipes) !== 255 ? 'terminated' : 'fatal error', "\n";
?>
--EXPECT--
150 connections: opened ok=150 refused=0 closed=0 failed=0
server: 150 open, all idle
flood of 300: every one answered 200 or 503, or closed: true
flood of 300: some served: true, some refused with 503: true
server: accepts failed for want of descriptors: true, refused: true, idle connections shed: true
idle connections of step 1 closed by the server: true
closed
server: 0 open
afterwards: opened ok=100 refused=0 closed=0 failed=0
server running: true
server CPU time under 3 s: true
closed
server exit: terminated
