--TEST--
pg_socket_poll() (PHP 8.4+, libpq's PQsocketPoll()) suspends only the calling coroutine until the socket is ready
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pgsql']);
if ($why !== '') die("skip $why");
if (!function_exists('pg_socket_poll')) die('skip pg_socket_poll() needs PHP 8.4 built with libpq 17');
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
await(spawn(function () use ($db) {
    $l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
    pg_query($l, 'LISTEN ch');
    spawn(function () use ($db) {
        delay(100);
        pg_query(pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW), "NOTIFY ch, 'ready'");
    });
    $ticker = new Ticker(1);
    $t0 = hrtime(true);
    /* -1: no timeout (a finite one ends at once on PHP 8.4 and 8.5, stock as well: PHP hands
     * libpq an end time already past) */
    $ready = pg_socket_poll(pg_socket($l), 1, 0, -1);
    $t1 = hrtime(true);
    $ticker->stop();
    pg_consume_input($l);
    $n = pg_get_notify($l, PGSQL_ASSOC);
    printf("pg_socket_poll: %d, %s, %s, %s\n", $ready, $n['payload'], ms_since($t0) >= 99 ? 'when the notification came' : 'early',
        $ticker->ticksIn($t0, $t1) >= max(1, (int) (10 / slow_factor())) ? 'the ticker ran meanwhile' : 'the ticker was held');
}));
?>
--EXPECT--
pg_socket_poll: 1, ready, when the notification came, the ticker ran meanwhile
