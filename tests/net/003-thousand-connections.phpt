--TEST--
Net: 1000 concurrent connections in one process (client and server coroutines, 2000+ descriptors)
--EXTENSIONS--
posix
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await};

// Both ends live in this process: 1000 connections are 2000 descriptors. Raise the soft limit
// (1024 by default on many systems) up to the hard one; the test needs about 2100.
$n = 1000;
$limits = posix_getrlimit();
if ($limits['soft openfiles'] !== 'unlimited' && (int) $limits['soft openfiles'] < 2 * $n + 100) {
    posix_setrlimit(POSIX_RLIMIT_NOFILE, 2 * $n + 100, (int) $limits['hard openfiles']);
}

[$srv, $addr] = net_listen(backlog: 2048);
$server = spawn(function () use ($srv, $n) {
    $handlers = [];
    for ($i = 0; $i < $n; $i++) {
        $c = stream_socket_accept($srv, 30);
        $handlers[] = spawn(function () use ($c) {
            $id = fgets($c);
            fwrite($c, "ack $id");
            // Hold the connection until the client hangs up: all 1000 stay open at once.
            fread($c, 1);
            fclose($c);
        });
    }
    foreach ($handlers as $h) {
        await($h);
    }
});

$open = 0;
$peak = 0;
$clients = [];
for ($i = 0; $i < $n; $i++) {
    $clients[] = spawn(function () use ($addr, $i, &$open, &$peak, $n) {
        $s = stream_socket_client("tcp://$addr", $errno, $errstr, 30);
        if ($s === false) {
            return "connect $i: $errstr";
        }
        fwrite($s, "$i\n");
        $reply = fgets($s);
        $open++;
        $peak = max($peak, $open);
        // Wait until every client holds its connection, then hang up.
        while ($peak < $n && $open > 0) {
            Async\delay(1);
        }
        fclose($s);
        $open--;
        return $reply === "ack $i\n" ? true : "client $i got " . var_export($reply, true);
    });
}
$failures = [];
foreach ($clients as $c) {
    $r = await($c);
    if ($r !== true) {
        $failures[] = $r;
    }
}
await($server);
echo "failures: ", count($failures), "\n", implode("\n", array_slice($failures, 0, 5)), "\n";
echo "connections open at once: $peak\n";
?>
--EXPECT--
failures: 0

connections open at once: 1000
