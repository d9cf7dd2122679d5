--TEST--
pg_cancel_query() of an asynchronous query (pg_send_query()) sends the cancel request from the thread pool: the other coroutines keep running during its round trip, the statement is cancelled, the connection is usable
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pgsql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/pgsql.inc';
use function Async\{spawn, await, delay};

$db = servers_start_postgres();
$l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);

/* stock: the cancel request's round trip (the server forks for it) holds the process */
pg_send_query($l, 'SELECT pg_sleep(30)');
usleep(50000);
$t0 = hrtime(true);
var_dump(pg_cancel_query($l));
$stockMs = ms_since($t0);

await(spawn(function () use ($l, $db, $stockMs) {
    gethostbyname('localhost'); /* the thread pool's threads exist before the measure */
    pg_send_query($l, 'SELECT pg_sleep(30)');
    delay(50);
    echo 'running before: ', pg_running($db, 'pg_sleep('), "\n";
    $ticker = new Ticker(1);
    delay(5);
    $t0 = hrtime(true);
    $ok = pg_cancel_query($l);
    $t1 = hrtime(true);
    $ticker->stop();
    var_dump($ok);
    /* the round trip is ~11 ms here: a process held by it has no tick in it at all */
    $ticks = $ticker->ticksIn($t0, $t1);
    echo $ticks >= 1 ? "the ticker ran during the round trip\n" : "no tick in " . ms_since($t0) . " ms (stock: $stockMs ms)\n";
    echo 'running after: ', pg_running($db, 'pg_sleep('), "\n";
    var_dump(pg_get_result($l));
    echo pg_fetch_result(pg_query($l, 'SELECT 42'), 0, 0), "\n";
}));
?>
--EXPECT--
bool(true)
running before: 1
bool(true)
the ticker ran during the round trip
running after: 0
bool(false)
42
