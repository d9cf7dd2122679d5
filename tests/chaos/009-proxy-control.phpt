--TEST--
Chaos proxy: the command line, the control commands, and faults changed on a live connection
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
use function Async\{spawn, await};

$script = chaos_root() . '/scripts/chaos-proxy.sh';
$help = shell_exec('bash ' . escapeshellarg($script) . ' --help');
echo strtok($help, "\n"), "\n";
exec('bash ' . escapeshellarg($script) . ' --upstream 127.0.0.1:1 --fault bogus=1 2>&1', $out, $rc);
echo implode("\n", $out), " (exit $rc)\n";

await(spawn(function () {
    $echo = ChaosEcho::start();
    $proxy = ChaosProxy::start($echo->addr, '', 5);
    echo "seed {$proxy->seed}, port ", $proxy->port > 0 ? 'chosen' : 'missing', "\n";
    // The spec as the proxy understood it: a field set for both directions is written once.
    echo $proxy->fault('up:latency=5 down:split=1 latency=7 down:reset_after=9'), "\n";
    echo $proxy->fault('none'), "\n";
    foreach (['fault latency=abc', 'fault up:refuse', 'fault conn=99 latency=1', 'frobnicate'] as $bad) {
        try {
            $proxy->command($bad);
        } catch (RuntimeException $e) {
            echo $e->getMessage(), "\n";
        }
    }

    // A live connection gets new faults: byte counts start from now.
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, 'hello');
    echo 'before: ', fread($c, 10), "\n";
    echo $proxy->fault('down:close_after=3', 1), "\n";
    fwrite($c, 'world');
    [$got, $how] = chaos_read($c);
    echo "after: '$got', then $how\n";
    fclose($c);
    echo $proxy->waitEvent('/^conn 1 closed /'), "\n";
    $s = $proxy->stats()[1];
    echo "down_sent={$s['down_sent']} fault=\"{$s['fault']}\"\n";
}));
?>
--EXPECT--
usage: chaos-proxy --upstream HOST:PORT [options]
chaos-proxy: --fault: unknown fault 'bogus' (exit 2)
seed 5, port chosen
latency=7 down:split=1 down:reset_after=9
none
chaos proxy: fault latency=abc: error fault: latency wants a number in [0, 3600000]
chaos proxy: fault up:refuse: error fault: unknown fault 'refuse'
chaos proxy: fault conn=99 latency=1: error fault: no live connection 99
chaos proxy: frobnicate: error unknown command 'frobnicate' (try help)
before: hello
down:close_after=3
after: 'wor', then eof
conn 1 closed why="down close_after=3"
down_sent=8 fault="down:close_after=3"
