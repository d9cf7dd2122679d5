--TEST--
Net: an echo server and 50 clients in one process, each connection a coroutine
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await};

[$srv, $addr] = net_listen();
$n = 50;
$server = spawn(function () use ($srv, $n) {
    $handlers = [];
    for ($i = 0; $i < $n; $i++) {
        $c = stream_socket_accept($srv, 10);
        $handlers[] = spawn(function () use ($c) {
            while (($line = fgets($c)) !== false) {
                fwrite($c, strtoupper($line));
            }
            fclose($c);
        });
    }
    foreach ($handlers as $h) {
        await($h);
    }
    return count($handlers);
});

$clients = [];
for ($i = 0; $i < $n; $i++) {
    $clients[] = spawn(function () use ($addr, $i) {
        $s = stream_socket_client("tcp://$addr", $errno, $errstr, 10);
        $got = '';
        for ($j = 0; $j < 3; $j++) {
            fwrite($s, "client $i line $j\n");
            $got .= fgets($s);
        }
        fclose($s);
        return $got === "CLIENT $i LINE 0\nCLIENT $i LINE 1\nCLIENT $i LINE 2\n";
    });
}
$ok = 0;
foreach ($clients as $c) {
    $ok += await($c) ? 1 : 0;
}
echo "clients ok: $ok\n";
echo "served: ", await($server), "\n";
?>
--EXPECT--
clients ok: 50
served: 50
