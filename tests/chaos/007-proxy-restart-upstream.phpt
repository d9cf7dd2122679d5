--TEST--
Chaos proxy: restart-upstream breaks the live session; new clients are refused until it is back
--SKIPIF--
<?php require __DIR__ . '/proxy.inc'; if (($r = chaos_skip_reason()) !== '') die("skip $r"); ?>
--FILE--
<?php
require __DIR__ . '/proxy.inc';
use function Async\{spawn, await};

await(spawn(function () {
    $echo = ChaosEcho::start();
    $proxy = ChaosProxy::start($echo->addr);

    // A live session, proven by one round trip, then a reader waiting for more.
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, 'one');
    echo 'session: ', fread($c, 10), "\n";
    $reader = spawn(fn () => chaos_read($c));

    $t = hrtime(true);
    $proxy->restartUpstream(300);
    [$got, $how] = await($reader);
    echo "restart: the session's reader got '$got', then $how\n";
    echo 'proxy: ', $proxy->waitEvent('/^conn 1 reset /'), "\n";
    fclose($c);

    // During the down time: accepted, then reset (mode refuse).
    echo 'while down: ', chaos_connect_refused($proxy->addr), "\n";
    echo 'proxy: ', $proxy->waitEvent('/^conn 2 refused /'), "\n";

    // Back after 300 ms: a new session works.
    $proxy->waitEvent('/^upstream up$/');
    echo 'upstream up ', ms_since($t) >= 299 ? 'after at least 300 ms' : 'too early', "\n";
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, 'two');
    echo 'new session: ', fread($c, 10), "\n";
    fclose($c);

    // unlisten: for the down time nobody listens, a true ECONNREFUSED.
    $proxy->restartUpstream(200, 'unlisten');
    $c = @stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    echo 'unlisten: connect ', $c === false ? "failed: $errstr" : 'succeeded', "\n";
    $proxy->waitEvent('/^upstream up$/');
    $c = stream_socket_client("tcp://{$proxy->addr}", $errno, $errstr, 5);
    fwrite($c, 'three');
    echo 'after unlisten: ', fread($c, 10), "\n";
    fclose($c);
    foreach ($proxy->events as $e) {
        if (str_starts_with($e, 'upstream ')) {
            echo "event: $e\n";
        }
    }
}));
?>
--EXPECT--
session: one
restart: the session's reader got '', then error
proxy: conn 1 reset why="restart-upstream"
while down: reset
proxy: conn 2 refused why="refuse"
upstream up after at least 300 ms
new session: two
unlisten: connect failed: Connection refused
after unlisten: three
event: upstream down ms=300 mode=refuse
event: upstream up
event: upstream down ms=200 mode=unlisten
event: upstream up
