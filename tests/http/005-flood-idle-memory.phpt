--TEST--
examples/http_server.php holds 2,000 idle keep-alive connections in at most 16 KiB of PHP memory each (memory_get_usage() growth per connection; it was over 64 KiB: fread()'s buffer)
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_get_usage() needs ZendMM');
require __DIR__ . '/flood.inc';
if (flood_hard_limit() < 4096) die('skip needs a descriptor hard limit of 4096');
?>
--FILE--
<?php
require __DIR__ . '/flood.inc';

const N = 2000;
[$server, $spipes, $addr] = flood_server(4096, ["--backlog=4096"]);
$client = flood_client(4096, $addr);

echo N, ' connections: ', flood_ask($client, 'open ' . N), "\n";
$stats = flood_stats($spipes, fn($f) => $f['idle'] === N);
echo 'server: ', $stats['connections'], ' open, ', $stats['idle'], " idle\n";
$per = $stats['per_connection'];
echo 'memory per idle connection <= 16 KiB: ', $per <= 16384 ? 'yes' : "no ($per bytes)", "\n";
echo 'and all still open: ', flood_ask($client, 'count'), "\n";
echo flood_ask($client, 'close'), "\n";
$stats = flood_stats($spipes, fn($f) => $f['connections'] === 0);
echo 'server: ', $stats['connections'], " open\n";
flood_stop(...$client);
flood_stop($server, $spipes);
?>
--EXPECT--
2000 connections: opened ok=2000 refused=0 closed=0 failed=0
server: 2000 open, 2000 idle
memory per idle connection <= 16 KiB: yes
and all still open: alive=2000 gone=0
closed
server: 0 open
