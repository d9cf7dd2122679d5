--TEST--
Chaos proxy: `random` picks one fault per connection from the seed: the same seed, the same faults
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
use function Async\{spawn, await};

/* The faults a proxy in `random` mode gives its first $n connections. */
function picks(string $upstream, int $seed, int $n): array
{
    $proxy = ChaosProxy::start($upstream, 'random', $seed);
    $faults = [];
    for ($id = 1; $id <= $n; $id++) {
        // (`refuse` may reset it before the connect is even checked)
        $c = @stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
        $faults[$id] = $proxy->connFault($id);
        if ($c !== false) {
            fclose($c);
        }
    }
    $stats = $proxy->stats();
    $proxy->stop();
    foreach ($faults as $id => $f) {
        if ($stats[$id]['fault'] !== $f) {
            echo "conn $id: stats say {$stats[$id]['fault']}, the event said $f\n";
        }
    }
    return $faults;
}

await(spawn(function () {
    $echo = ChaosEcho::start();
    $a = picks($echo->addr, 42, 12);
    $b = picks($echo->addr, 42, 12);
    echo 'seed 42 twice: ', $a === $b ? 'the same faults' : "different:\n" . print_r([$a, $b], true), "\n";
    echo 'kinds of fault: ', count(array_unique(array_map(fn ($f) => preg_replace('/^(up:|down:)|=.*$/', '', $f), $a))) > 3 ? 'several' : 'too few', "\n";
    $c = picks($echo->addr, 43, 12);
    echo 'seed 43: ', $a === $c ? 'the same faults' : 'other faults', "\n";

    // A subset, and the pick depends on the seed and the connection's number only.
    $proxy = ChaosProxy::start($echo->addr, 'random=reset_after,close_after', 42);
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    echo 'subset: ', preg_match('/^(up|down):(reset|close)_after=\d+$/', $proxy->connFault(1)) ? 'a reset_after or close_after' : $proxy->connFault(1), "\n";
    fclose($c);
}));
?>
--EXPECT--
seed 42 twice: the same faults
kinds of fault: several
seed 43: other faults
subset: a reset_after or close_after
